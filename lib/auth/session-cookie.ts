import { appError } from "../errors.ts";

// The browser session travels in one httpOnly cookie. These helpers are pure: they read and
// write header strings, so they work the same in route handlers, pages and tests.

export const SESSION_COOKIE = "cellwright_session";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export const sessionTokenOf = (req: Request) => readCookie(req.headers.get("cookie"), SESSION_COOKIE) || undefined;

/**
 * The origin the browser sees: the request's own scheme and Host, or, behind a reverse proxy that
 * is trusted (TRUST_PROXY=true), what X-Forwarded-Proto and X-Forwarded-Host say. Untrusted
 * forwarding headers are ignored: anyone can send them.
 */
export function publicOrigin(req: Request, trustProxy: boolean): string {
  const own = new URL(req.url);
  const first = (name: string) =>
    (trustProxy ? req.headers.get(name)?.split(",")[0]?.trim().toLowerCase() : undefined) || undefined;
  const proto = first("x-forwarded-proto") ?? own.protocol.replace(":", "");
  const host = first("x-forwarded-host") ?? req.headers.get("host") ?? own.host;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return own.origin;
  }
}

/** HTTPS directly, or behind a trusted proxy that says so. */
export const isSecureRequest = (req: Request, trustProxy: boolean) =>
  publicOrigin(req, trustProxy).startsWith("https:");

/**
 * httpOnly so scripts never see the token; SameSite=Strict so other sites cannot ride on it;
 * Secure whenever the page itself came over HTTPS (plain-HTTP localhost must still work).
 */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${maxAge}`,
    `Expires=${expiresAt.toUTCString()}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function clearedSessionCookie(secure: boolean): string {
  return [
    `${SESSION_COOKIE}=`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    "Max-Age=0",
    "Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/**
 * CSRF defence for cookie-authenticated writes, on top of SameSite=Strict: browsers send
 * Origin with every non-GET fetch, so a write whose Origin is not exactly this site (scheme,
 * host and port) is refused. A write without Origin is accepted only when Sec-Fetch-Site says
 * it is same-origin.
 */
export function assertSameOrigin(req: Request, trustProxy: boolean): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") {
    if (req.headers.get("sec-fetch-site") === "same-origin") return;
    throw appError("cross_site_request");
  }
  let sent: string;
  try {
    sent = new URL(origin).origin;
  } catch {
    throw appError("cross_site_request");
  }
  if (sent !== publicOrigin(req, trustProxy)) throw appError("cross_site_request");
}

const PLACEHOLDER_ORIGIN = "http://cellwright.invalid";

/**
 * Only same-site paths are followed after sign-in, never another origin ("//evil", "https:",
 * "/\\evil", or "/%09/evil", which browsers read as "//evil" once they drop the tab).
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith("/") || /[\u0000-\u0020\u007f\\]/.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, PLACEHOLDER_ORIGIN);
  } catch {
    return "/";
  }
  return url.origin === PLACEHOLDER_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : "/";
}
