import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../lib/http/schemas/index.ts";
import { KEY_SCOPES, PERSON_PERMISSIONS, ROLE_PERMISSIONS } from "../../lib/auth/permissions.ts";
import { assertPermitted, requiredScopes } from "../../lib/auth/authorize.ts";
import { isAppError } from "../../lib/errors.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { openApiDocument } from "../../lib/http/openapi.ts";
import { scopeToName } from "../../lib/auth/permissions.ts";

// A missing scope cannot ship: every endpoint that is not public names a permission that exists,
// and an endpoint without one is refused to everyone, an owner included, rather than left open.
// (Whether each scope is the right one: test/api/authorization-matrix.test.ts.)

const KNOWN = new Set<string>([...KEY_SCOPES, ...PERSON_PERMISSIONS]);

const owner: Principal = {
  workspaceId: "ws",
  keyId: null,
  userId: "usr",
  actorId: "usr",
  role: "owner",
  permissions: ROLE_PERMISSIONS.owner,
  baseIds: null,
  dailyCreditCap: null,
};

describe("endpoint scopes", () => {
  it("every endpoint that is not public names a known permission", () => {
    const missing = ENDPOINTS.filter((e) => !e.public && !e.scope).map((e) => `${e.method} ${e.path}`);
    expect(missing).toEqual([]);
    for (const e of ENDPOINTS) {
      if (e.public) {
        expect(e.scope, `${e.method} ${e.path} is public and needs no scope`).toBeUndefined();
        continue;
      }
      for (const s of requiredScopes(e)) expect(KNOWN.has(s), `${e.method} ${e.path}: ${s}`).toBe(true);
    }
  });

  it("an endpoint without a scope is refused even to an owner", () => {
    let caught: unknown;
    try {
      assertPermitted(owner, {});
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught) && caught.code).toBe("insufficient_scope");
    expect(() => assertPermitted(owner, { scope: "rows:read" })).not.toThrow();
  });

  it("an endpoint that spends credits needs runs:write besides its scope", () => {
    expect(requiredScopes({ scope: "schema:write", spendsCredits: true })).toEqual(["schema:write", "runs:write"]);
    expect(requiredScopes({ scope: "runs:write", spendsCredits: true })).toEqual(["runs:write"]);
    const admin = { ...owner, role: "admin" as const, permissions: new Set(["schema:write" as const]) };
    expect(() => assertPermitted(admin, { scope: "schema:write", spendsCredits: true })).toThrow(/runs:write/);
  });

  it("the OpenAPI document lists each operation's scopes in its security requirement and its description", () => {
    const doc = openApiDocument() as any;
    expect(doc.components.securitySchemes.apiKey.description).toContain("members:manage");
    for (const e of ENDPOINTS) {
      const op = doc.paths[e.path][e.method.toLowerCase()];
      if (e.public) {
        expect(op.security, e.path).toEqual([]);
        continue;
      }
      const scopes = [...new Set(requiredScopes(e).map(scopeToName))];
      expect(op.security, `${e.method} ${e.path}`).toEqual([{ apiKey: scopes }, { sessionCookie: scopes }]);
      for (const s of scopes) expect(op.description, `${e.method} ${e.path}`).toContain(`\`${s}\``);
    }
  });
});
