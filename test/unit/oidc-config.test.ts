import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";

// Single sign-on is on only when the issuer, client id and secret are all set (docs/sso.md).

const SET = { OIDC_ISSUER: "https://idp.example.com/realms/acme", OIDC_CLIENT_ID: "cw", OIDC_CLIENT_SECRET: "s3cret" };

describe("OIDC configuration", () => {
  it("is null unless the issuer, client id and secret are all set", () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig({ ...SET, OIDC_CLIENT_SECRET: " " }).oidc).toBeNull();
    expect(loadConfig({ OIDC_ISSUER: SET.OIDC_ISSUER, OIDC_CLIENT_ID: "cw" }).oidc).toBeNull();
  });

  it("defaults to viewers in the oldest workspace", () => {
    expect(loadConfig(SET).oidc).toEqual({
      issuer: SET.OIDC_ISSUER,
      clientId: "cw",
      clientSecret: "s3cret",
      defaultRole: "viewer",
      workspace: null,
    });
    expect(loadConfig({ ...SET, OIDC_DEFAULT_ROLE: "editor", OIDC_WORKSPACE: "Sales" }).oidc).toMatchObject({
      defaultRole: "editor",
      workspace: "Sales",
    });
  });

  it("refuses a role that does not exist and an issuer that is not an http(s) URL", () => {
    expect(() => loadConfig({ ...SET, OIDC_DEFAULT_ROLE: "superuser" })).toThrow(/OIDC_DEFAULT_ROLE/);
    expect(() => loadConfig({ ...SET, OIDC_ISSUER: "idp.example.com" })).toThrow(/OIDC_ISSUER/);
    expect(() => loadConfig({ ...SET, OIDC_ISSUER: "ftp://idp.example.com" })).toThrow(/OIDC_ISSUER/);
  });
});
