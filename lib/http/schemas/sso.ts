import { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";

// Single sign-on with OpenID Connect (docs/sso.md): a browser is sent to the provider and comes
// back to the callback, which signs it in with a session cookie.

export const startSso = defineEndpoint({
  method: "GET",
  path: "/api/v1/session/sso",
  summary: "Sign in with single sign-on",
  description:
    "Redirects (302) to the OpenID Connect provider, with a short-lived cookie holding the state, nonce and PKCE verifier of this sign-in. 404 sso_not_configured when OIDC_ISSUER, OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is unset.",
  public: true,
  query: z.object({
    next: z.string().max(2_000).optional().describe("Where to go afterwards: a path of this site; default /."),
  }),
  status: 302,
  responseContentType: "none (302 redirect to the provider, with Set-Cookie)",
  response: z.null().describe("No body: a 302 redirect to the provider's authorization endpoint."),
});

export const ssoCallback = defineEndpoint({
  method: "GET",
  path: "/api/v1/session/sso/callback",
  summary: "Single sign-on callback",
  description:
    "Where the provider sends the browser back: checks the state, exchanges the code, validates the ID token (issuer, audience, nonce, expiry) and requires a verified email to link or create a user. Sets the session cookie and redirects (303) to next. Any failure answers 401 sso_failed, or, for a browser, redirects to /sign-in?error=sso_failed.",
  public: true,
  query: z.object({
    code: z.string().max(4_000).optional().describe("The authorization code."),
    state: z.string().max(1_000).optional().describe("The state sent to the provider."),
    iss: z.string().max(2_000).optional().describe("The issuer, from providers that send it."),
    error: z.string().max(200).optional().describe("The provider's error code, when sign-in failed there."),
    error_description: z.string().max(2_000).optional().describe("The provider's description of that error."),
    session_state: z.string().max(1_000).optional().describe("Session state, from providers that send it."),
  }),
  status: 303,
  responseContentType: "none (303 redirect with Set-Cookie)",
  response: z.null().describe("No body: a 303 redirect to next, with the session cookie."),
});
