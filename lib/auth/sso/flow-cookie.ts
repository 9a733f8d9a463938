import { readCookie } from "../session-cookie.ts";

// Between the redirect to the provider and its redirect back, the browser holds what the callback
// must check: state, nonce, the PKCE verifier, where to go afterwards and the redirect URI used.
// None of it is a credential on its own (the verifier is useless without the code, which only
// the provider hands out), so a plain httpOnly cookie is enough. SameSite=Lax, not Strict: the
// provider's redirect back is a cross-site top-level GET, and a Strict cookie would not come with it.

export const SSO_COOKIE = "cellwright_sso";
const SSO_COOKIE_PATH = "/api/v1/session/sso";
/** Time to sign in at the provider. */
export const SSO_FLOW_TTL_S = 600;

export interface SsoFlow {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  redirectUri: string;
}

const FIELDS = ["state", "nonce", "verifier", "next", "redirectUri"] as const;

export function encodeFlow(flow: SsoFlow): string {
  return Buffer.from(JSON.stringify(flow)).toString("base64url");
}

/** The flow in a request's cookie, or null when it is missing or not one this server wrote. */
export function flowOf(req: Request): SsoFlow | null {
  const raw = readCookie(req.headers.get("cookie"), SSO_COOKIE);
  if (!raw || raw.length > 4_000) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Record<string, unknown>;
    if (!value || typeof value !== "object") return null;
    if (!FIELDS.every((f) => typeof value[f] === "string" && value[f] !== "")) return null;
    return value as unknown as SsoFlow;
  } catch {
    return null;
  }
}

export function flowCookie(flow: SsoFlow, secure: boolean): string {
  return [
    `${SSO_COOKIE}=${encodeFlow(flow)}`,
    `Path=${SSO_COOKIE_PATH}`,
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${SSO_FLOW_TTL_S}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The flow is used once: the callback clears it whatever the outcome. */
export function clearedFlowCookie(secure: boolean): string {
  return [
    `${SSO_COOKIE}=`,
    `Path=${SSO_COOKIE_PATH}`,
    "HttpOnly",
    "SameSite=Lax",
    "Max-Age=0",
    "Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
