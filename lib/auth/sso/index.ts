import { appError } from "../../errors.ts";
import { hostPolicy, namedHosts } from "../../http/allowed-hosts.ts";
import type { Runtime } from "../../runtime.ts";
import { publicOrigin } from "../session-cookie.ts";
import type { OidcSettings } from "./provider.ts";

// Single sign-on with OpenID Connect: the flow (flow.ts), its cookie (flow-cookie.ts), the
// provider's discovered metadata (provider.ts) and who the identity is here (identity.ts).

export { CALLBACK_PATH, finishSso, startSso } from "./flow.ts";
export { clearedFlowCookie, flowCookie, flowOf } from "./flow-cookie.ts";
export { memberForIdentity } from "./identity.ts";

/** The settings, or 404 sso_not_configured. */
export function ssoSettings(rt: Runtime): OidcSettings {
  if (!rt.config.oidc) throw appError("sso_not_configured");
  return rt.config.oidc;
}

/**
 * The origin of the redirect URI: PUBLIC_URL, else the one the browser used, when this server
 * answers to that host (a provider must have the URI registered, so it cannot be chosen freely).
 */
export function ssoOrigin(rt: Runtime, req: Request): string {
  if (rt.config.publicUrl) return rt.config.publicUrl;
  const policy = hostPolicy(rt.config);
  if (!namedHosts(req.headers, rt.config.trustProxy).every((h) => policy.allows(h))) throw appError("host_not_allowed");
  return publicOrigin(req, rt.config.trustProxy);
}
