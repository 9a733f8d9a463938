import * as oidc from "openid-client";
import { appError } from "../../errors.ts";
import { providerConfiguration, type OidcSettings } from "./provider.ts";
import type { SsoFlow } from "./flow-cookie.ts";

// The authorization code flow with PKCE, state and nonce. openid-client checks the answer: the
// state, the ID token's signature, issuer, audience, nonce and expiry. Every way it can fail is
// one answer to the browser, sso_failed; the reason goes to the server log only.

export const CALLBACK_PATH = "/api/v1/session/sso/callback";

/** Where to send the browser, and the flow to keep in its cookie until it comes back. */
export async function startSso(
  settings: OidcSettings,
  origin: string,
  next: string,
): Promise<{ url: string; flow: SsoFlow }> {
  const config = await discover(settings);
  const flow: SsoFlow = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    next,
    redirectUri: origin + CALLBACK_PATH,
  };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: flow.redirectUri,
    response_type: "code",
    scope: "openid email profile",
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
  });
  return { url: url.href, flow };
}

export interface SsoIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
}

/** Checks the provider's answer against the flow and returns who signed in. */
export async function finishSso(settings: OidcSettings, req: Request, flow: SsoFlow | null): Promise<SsoIdentity> {
  if (!flow) throw failed("no sign-in in progress (the cookie is missing or expired)");
  const config = await discover(settings);
  // The answer's parameters, on the redirect URI exactly as it was sent to the provider.
  const current = new URL(flow.redirectUri);
  current.search = new URL(req.url).search;
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, current, {
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      pkceCodeVerifier: flow.verifier,
      idTokenExpected: true,
    });
  } catch (e) {
    throw failed(e);
  }
  const claims = tokens.claims();
  if (!claims) throw failed("no ID token");
  let profile: Record<string, unknown> = { ...claims };
  // Providers that keep email and name out of the ID token give them at the UserInfo endpoint.
  if (
    (claims.email === undefined || claims.email_verified === undefined) &&
    config.serverMetadata().userinfo_endpoint
  ) {
    try {
      profile = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    } catch (e) {
      throw failed(e);
    }
  }
  const email = typeof profile.email === "string" ? profile.email.trim().toLowerCase() : null;
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: email || null,
    emailVerified: profile.email_verified === true || profile.email_verified === "true",
    name: typeof profile.name === "string" ? profile.name.trim().slice(0, 200) : "",
  };
}

async function discover(settings: OidcSettings) {
  try {
    return await providerConfiguration(settings);
  } catch (e) {
    throw failed(e);
  }
}

export function failed(reason: unknown) {
  // openid-client wraps the precise reason (which claim, which check) as the cause: enough to
  // tell a misconfigured client (audience) from a slow clock (expiry), and nothing secret.
  // The provider's own OAuth error code (invalid_grant, access_denied) comes as `error`.
  const e = reason as { name?: string; message?: string; code?: string; cause?: unknown; error?: unknown };
  const cause = e.cause instanceof Error ? e.cause.message : undefined;
  const oauthError = typeof e.error === "string" ? `error ${e.error}` : undefined;
  const why =
    reason instanceof Error
      ? [`${e.name}: ${e.message}`, e.code, cause, oauthError].filter(Boolean).join(", ")
      : String(reason);
  console.warn(`[cellwright] single sign-on failed: ${why}`);
  return appError("sso_failed");
}
