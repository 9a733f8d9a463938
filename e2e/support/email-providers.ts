import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// Two email providers on one local server, with known answers per row, for the waterfall spec.

// Row i's kind, by i % 5: the pattern provider finds 0 and 1; it answers 2 with a value that fails
// the check; it has nothing for 3 and 4. The premium provider finds 2 and 3, and has nothing for 4.
export const kindOf = (i: number) => (["pattern", "pattern", "invalid", "premium", "none"] as const)[i % 5];
export const domain = (i: number) => `co${i}.example`;
export const CREDITS = { pattern: { found: 1, notFound: 0 }, premium: { found: 3, notFound: 1 } };
export interface Call {
  path: string;
  domain: string;
  authorized: boolean;
}

/** The two providers on one local server: /pattern and /premium, both behind the bearer token. */
export async function startProviders(token: string) {
  const calls: Call[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const d = url.searchParams.get("domain") ?? "";
    const authorized = req.headers.authorization === `Bearer ${token}`;
    calls.push({ path: url.pathname, domain: d, authorized });
    const i = Number(/^co(\d+)\.example$/.exec(d)?.[1] ?? -1);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!authorized) return send(401, { error: "missing or wrong API key" });
    if (i < 0) return send(404, {});
    const kind = kindOf(i);
    if (url.pathname === "/pattern") {
      if (kind === "pattern") return send(200, { email: `person${i}@${d}` });
      if (kind === "invalid") return send(200, { email: "unknown" });
      return send(404, { email: null });
    }
    if (url.pathname === "/premium") {
      if (kind === "invalid" || kind === "premium") return send(200, { data: { email: `ceo@${d}` } });
      return send(404, { data: null });
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
