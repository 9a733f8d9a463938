import { expect } from "vitest";

// A browser's part in single sign-on, over real HTTP: Cellwright's start endpoint, the provider's
// redirects (with its own cookies), and back to the callback, each step checked on the way.

export const SSO_CALLBACK = "/api/v1/session/sso/callback";

/** Cookies by name, as a browser keeps them for one site (paths are not needed here). */
export class Jar {
  readonly cookies = new Map<string, string>();
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface SsoFlowOptions {
  next?: string;
  accept?: string;
  /** Changes the URL the provider sends the browser back to. */
  callbackUrl?: (url: URL) => void;
  /** Changes the flow cookie before the callback. */
  flowCookie?: (value: Record<string, string>) => Record<string, string>;
}

/** One sign-in from start to callback, as a browser follows it; the callback's answer and the site's cookie jar. */
export async function driveSso(siteUrl: string, issuer: string, flow: SsoFlowOptions = {}) {
  const site = new Jar();
  const provider = new Jar();
  const next = flow.next === undefined ? "" : `?next=${encodeURIComponent(flow.next)}`;
  const start = await fetch(`${siteUrl}/api/v1/session/sso${next}`, { redirect: "manual" });
  expect(start.status, await start.clone().text()).toBe(302);
  site.take(start);
  let location = new URL(start.headers.get("location")!);
  expect(location.origin).toBe(issuer);
  for (let hops = 0; location.origin === issuer; hops++) {
    expect(hops).toBeLessThan(10);
    const res = await fetch(location, { redirect: "manual", headers: { cookie: provider.header() } });
    expect([302, 303], await res.clone().text()).toContain(res.status);
    provider.take(res);
    location = new URL(res.headers.get("location")!, location);
  }
  expect(location.origin + location.pathname).toBe(siteUrl + SSO_CALLBACK);
  flow.callbackUrl?.(location);
  if (flow.flowCookie) {
    const raw = JSON.parse(Buffer.from(site.cookies.get("cellwright_sso")!, "base64url").toString());
    site.cookies.set("cellwright_sso", Buffer.from(JSON.stringify(flow.flowCookie(raw))).toString("base64url"));
  }
  const callback = await fetch(location, {
    redirect: "manual",
    headers: { cookie: site.header(), ...(flow.accept ? { accept: flow.accept } : {}) },
  });
  site.take(callback);
  return { callback, site, body: callback.status === 303 ? null : await callback.json() };
}
