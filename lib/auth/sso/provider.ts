import * as oidc from "openid-client";
import type { Config } from "../../config.ts";

// The provider's metadata and keys, found once by discovery and kept for the process. A failed
// discovery is not kept: the next sign-in tries again.

export type OidcSettings = NonNullable<Config["oidc"]>;

const discovered = new Map<string, Promise<oidc.Configuration>>();

export function providerConfiguration(settings: OidcSettings): Promise<oidc.Configuration> {
  const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]);
  let found = discovered.get(key);
  if (!found) {
    // A plain-HTTP issuer is the operator's explicit choice (a provider on the same host or a
    // private network); openid-client refuses it unless told.
    const insecure = new URL(settings.issuer).protocol === "http:";
    found = oidc.discovery(
      new URL(settings.issuer),
      settings.clientId,
      { client_secret: settings.clientSecret },
      // client_secret_basic: the default method of OpenID Connect, so every provider takes it.
      oidc.ClientSecretBasic(settings.clientSecret),
      { execute: insecure ? [oidc.allowInsecureRequests] : [], timeout: 10 },
    );
    discovered.set(key, found);
    found.catch(() => discovered.delete(key));
  }
  return found;
}
