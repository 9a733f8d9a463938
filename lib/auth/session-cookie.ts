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

/** HTTPS directly, or behind a proxy that says so. */
export function isSecureRequest(req: Request): boolean {
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === "https";
  return new URL(req.url).protocol === "https:";
}

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
  return [`${SESSION_COOKIE}=`, "Path=/", "HttpOnly", "SameSite=Strict", "Max-Age=0", "Expires=Thu, 01 Jan 1970 00:00:00 GMT", ...(secure ? ["Secure"] : [])].join(
    "; ",
  );
}

/**
 * CSRF defence for cookie-authenticated writes, on top of SameSite=Strict: browsers send
 * Origin with every non-GET fetch, so a write whose Origin is another host is refused. A write
 * without Origin is accepted only when Sec-Fetch-Site says it is same-origin.
 */
export function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") {
    if (req.headers.get("sec-fetch-site") === "same-origin") return;
    throw appError("cross_site_request");
  }
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    throw appError("cross_site_request");
  }
  const hosts = [req.headers.get("x-forwarded-host")?.split(",")[0]?.trim(), req.headers.get("host"), new URL(req.url).host]
    .filter((h): h is string => Boolean(h))
    .map((h) => h.toLowerCase());
  if (!hosts.includes(originHost)) throw appError("cross_site_request");
}

/** Only same-site paths are followed after sign-in, never another origin ("//evil", "https:"). */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}
