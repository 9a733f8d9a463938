import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, COMPANIES } from "./fixtures.ts";
import { ENDPOINTS } from "../../lib/http/schemas/index.ts";
import { addMember, type Headers, keyHeaders, makeKey, sessionHeaders } from "../support/principals.ts";

// Every endpoint of the registry, called by every kind of principal: a signed-in member of each
// role, a key made by each member, one key per single scope and a workspace key. Whether each is
// let through is compared with the table below, written by hand from the roles of the issue, and
// NOT read from the endpoints' own `scope`: a wrong declaration fails here.
// Refused means 403 insufficient_scope. Allowed means anything but 401 and 403 (and never a 500):
// bodies are deliberately broken, so an allowed write stops at its parser with a 400, or at an
// unknown id with a 404, and writes nothing.

type Scope =
  | "rows:read"
  | "rows:write"
  | "schema:write"
  | "runs:write"
  | "webhooks:manage"
  | "keys:manage"
  | "secrets:manage"
  | "audit:read"
  | "members:manage"
  | "keys:own";
type Need = Scope | readonly Scope[] | "public";

/** Method and path (params as {}) → what a caller needs; the endpoints of the issue not yet built are listed too. */
const REQUIRED: Record<string, Need> = {
  "GET /api/v1/bases/{}/rows": "rows:read",
  "GET /api/v1/bases/{}/rows/{}": "rows:read",
  "POST /api/v1/bases/{}/rows/query": "rows:read",
  "GET /api/v1/bases/{}/export": "rows:read",
  "POST /api/v1/bases/{}/add-rows": "rows:write",
  "POST /api/v1/bases/{}/update-rows": "rows:write",
  "POST /api/v1/bases/{}/delete-rows": "rows:write",
  "POST /api/v1/bases/{}/imports": "rows:write",
  "GET /api/v1/bases/{}/imports": "rows:read",
  "GET /api/v1/bases/{}/imports/{}": "rows:read",
  "POST /api/v1/bases/{}/imports/preview": "rows:write",
  "GET /api/v1/bases": "rows:read",
  "POST /api/v1/bases": "schema:write",
  "GET /api/v1/bases/{}": "rows:read",
  "PATCH /api/v1/bases/{}": "schema:write",
  "DELETE /api/v1/bases/{}": "schema:write",
  "GET /api/v1/bases/{}/base-structure": "rows:read",
  "POST /api/v1/bases/{}/columns": "schema:write",
  "PATCH /api/v1/bases/{}/columns/{}": "schema:write",
  "DELETE /api/v1/bases/{}/columns/{}": "schema:write",
  "GET /api/v1/bases/{}/views": "rows:read",
  "POST /api/v1/bases/{}/views": "rows:write",
  "GET /api/v1/bases/{}/views/{}": "rows:read",
  "PATCH /api/v1/bases/{}/views/{}": "rows:write",
  "DELETE /api/v1/bases/{}/views/{}": "rows:write",
  "POST /api/v1/bases/{}/review": "rows:write",
  "GET /api/v1/bases/{}/review": "rows:read",
  "POST /api/v1/bases/{}/review/{}/undo": "rows:write",
  "GET /api/v1/bases/{}/columns/{}/quality": "rows:read",
  "GET /api/v1/bases/{}/columns/{}/steps": "rows:read",
  "POST /api/v1/bases/{}/fill-preview": "schema:write",
  "POST /api/v1/bases/{}/columns/{}/evaluate/estimate": "rows:read",
  "POST /api/v1/bases/{}/columns/{}/evaluate": "runs:write",
  "GET /api/v1/evaluations/{}": "rows:read",
  "GET /api/v1/bases/{}/columns/{}/evaluations": "rows:read",
  "POST /api/v1/bases/{}/columns/{}/evaluations/{}/apply": "schema:write",
  "POST /api/v1/bases/{}/run": "runs:write",
  "POST /api/v1/bases/{}/run/estimate": "rows:read",
  "GET /api/v1/runs/{}": "rows:read",
  "GET /api/v1/bases/{}/runs": "rows:read",
  "POST /api/v1/runs/{}/cancel": "runs:write",
  "POST /api/v1/runs/{}/pause": "runs:write",
  "POST /api/v1/runs/{}/resume": "runs:write",
  // A find spends credits on searches, pages and the model; reading one is reading the base.
  "POST /api/v1/bases/{}/finds": "runs:write",
  "GET /api/v1/bases/{}/finds": "rows:read",
  "GET /api/v1/bases/{}/finds/{}": "rows:read",
  "POST /api/v1/bases/{}/finds/{}/extend": "runs:write",
  "GET /api/v1/bases/{}/finds/{}/candidates": "rows:read",
  // A schedule spends credits later without asking: making, changing and triggering one is spending.
  "GET /api/v1/bases/{}/rows/{}/history": "rows:read",
  "POST /api/v1/bases/{}/rows/{}/cells/{}/revert": "rows:write",
  "POST /api/v1/runs/{}/revert": "rows:write",
  "GET /api/v1/bases/{}/schedules": "rows:read",
  "POST /api/v1/bases/{}/schedules": "runs:write",
  "GET /api/v1/bases/{}/schedules/{}": "rows:read",
  "PATCH /api/v1/bases/{}/schedules/{}": "runs:write",
  "DELETE /api/v1/bases/{}/schedules/{}": "runs:write",
  "POST /api/v1/bases/{}/schedules/{}/trigger": "runs:write",
  // The assistant changes the structure and bills every request.
  "POST /api/v1/bases/ai-configure-base": ["schema:write", "runs:write"],
  "GET /api/v1/bases/{}/chat": "rows:read",
  "GET /api/v1/bases/{}/events": "rows:read",
  "POST /api/v1/bases/{}/files": "rows:write",
  "GET /api/v1/files/{}": "rows:read",
  "GET /api/v1/credits": "rows:read",
  "GET /api/v1/api-keys": "keys:own",
  "POST /api/v1/api-keys": "keys:own",
  "DELETE /api/v1/api-keys/{}": "keys:own",
  "PATCH /api/v1/api-keys/{}": "keys:own",
  "GET /api/v1/webhooks": "webhooks:manage",
  "POST /api/v1/webhooks": "webhooks:manage",
  "GET /api/v1/webhooks/{}": "webhooks:manage",
  "PATCH /api/v1/webhooks/{}": "webhooks:manage",
  "DELETE /api/v1/webhooks/{}": "webhooks:manage",
  "POST /api/v1/webhooks/{}/rotate-secret": "webhooks:manage",
  "GET /api/v1/webhooks/{}/deliveries": "webhooks:manage",
  "POST /api/v1/webhooks/{}/deliveries/{}/redeliver": "webhooks:manage",
  "GET /api/v1/openapi.json": "public",
  "GET /api/v1/session": "public",
  "POST /api/v1/session": "public",
  "DELETE /api/v1/session": "public",
  "GET /api/v1/session/auto": "public",
  "GET /api/v1/session/link": "public",
  "GET /api/v1/session/sso": "public",
  "GET /api/v1/session/sso/callback": "public",
  // People (members, invitations, password resets): owners manage them; everyone sees who is in.
  "GET /api/v1/members": "rows:read",
  "PATCH /api/v1/members/{}": "members:manage",
  "DELETE /api/v1/members/{}": "members:manage",
  "POST /api/v1/members/first-owner": "members:manage",
  "POST /api/v1/invitations": "members:manage",
  "GET /api/v1/invitations": "members:manage",
  "DELETE /api/v1/invitations/{}": "members:manage",
  "POST /api/v1/invitations/accept": "public",
  "POST /api/v1/password-resets": "members:manage",
  "POST /api/v1/password-resets/redeem": "public",
  "GET /api/v1/secrets": "secrets:manage",
  "POST /api/v1/secrets": "secrets:manage",
  "DELETE /api/v1/secrets/{}": "secrets:manage",
  "GET /api/v1/audit": "audit:read",
  "GET /api/v1/workspace": "rows:read",
  "PATCH /api/v1/workspace": "members:manage",
};

const KEY_SCOPES: Scope[] = [
  "rows:read",
  "rows:write",
  "schema:write",
  "runs:write",
  "webhooks:manage",
  "keys:manage",
  "secrets:manage",
  "audit:read",
];
const VIEWER: Scope[] = ["rows:read", "keys:own"];
const EDITOR: Scope[] = [...VIEWER, "rows:write", "runs:write"];
const ADMIN: Scope[] = [...EDITOR, "schema:write", "webhooks:manage", "keys:manage", "secrets:manage", "audit:read"];
const ROLES: Record<string, Scope[]> = {
  viewer: VIEWER,
  editor: EDITOR,
  admin: ADMIN,
  owner: [...ADMIN, "members:manage"],
};

/** What a key holds: its scopes that its creator's role grants; keys:manage brings keys:own. */
const keyHolds = (scopes: readonly Scope[], role = "owner"): Set<Scope> => {
  const held = new Set(scopes.filter((s) => s !== "keys:own" && s !== "members:manage" && ROLES[role].includes(s)));
  if (held.has("keys:manage")) held.add("keys:own");
  return held;
};

interface Caller {
  name: string;
  headers: Headers;
  holds: Set<Scope>;
}

let app: TestApp;
let f: TestBase;
let rowId: string;
const callers: Caller[] = [];

beforeAll(async () => {
  app = await createTestApp();
  const rt = app.rt;
  const ws = app.workspaceA;
  f = await createBase(app, COMPANIES);
  [{ id: rowId }] = await addRows(app, f.baseId, [{ Company: "Acme", Summary: "By hand" }]);
  for (const role of Object.keys(ROLES)) {
    const userId = await addMember(rt, ws, role);
    callers.push({
      name: `${role} (session)`,
      headers: await sessionHeaders(rt, ws, userId),
      holds: new Set(ROLES[role]),
    });
    const key = await makeKey(rt, ws, { scopes: KEY_SCOPES, createdByUserId: userId });
    callers.push({ name: `${role}'s key`, headers: keyHeaders(key), holds: keyHolds(KEY_SCOPES, role) });
  }
  for (const scope of KEY_SCOPES) {
    const key = await makeKey(rt, ws, { scopes: [scope] });
    callers.push({ name: `${scope} key`, headers: keyHeaders(key), holds: keyHolds([scope]) });
  }
  // The workspace's first key stands for its owner: every key scope, and the person-only ones too.
  const workspaceKey = new Set<Scope>([...keyHolds(KEY_SCOPES), "members:manage", "keys:own"]);
  callers.push({ name: "workspace key", headers: keyHeaders(app.keyA), holds: workspaceKey });
}, 60_000);
afterAll(() => app.close());

const tableKey = (method: string, path: string) => `${method} ${path.replace(/\{\w+\}/g, "{}")}`;
const needs = (need: Need): Scope[] => (typeof need === "string" ? [need as Scope] : [...need]);
/** The scope an insufficient_scope error names: what a key would carry. */
const named = (s: Scope) => (s === "keys:own" ? "keys:manage" : s);

/** A concrete path: the fixture's base and row for reads (the event stream excepted), unknown ids elsewhere. */
function concrete(method: string, path: string): string {
  const realBase = method === "GET" && !path.endsWith("/events");
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "baseId" && realBase) return f.baseId;
    if (name === "rowId") return rowId;
    return `${name.replace(/Id$/, "")}_unknown0000`;
  });
}

describe("the authorization matrix", () => {
  it("has a row for every endpoint, and no endpoint is public unless the table says so", () => {
    for (const e of ENDPOINTS) {
      const need = REQUIRED[tableKey(e.method, e.path)];
      expect(need, `${e.method} ${e.path} is missing from the table`).toBeDefined();
      expect(e.public === true, `${e.method} ${e.path}: public`).toBe(need === "public");
    }
  });

  for (const e of ENDPOINTS) {
    const need = REQUIRED[tableKey(e.method, e.path)];
    if (need === undefined || need === "public") continue;
    it(`${e.method} ${e.path} needs ${needs(need).join(" and ")}`, async () => {
      const path = concrete(e.method, e.path);
      const body = e.method === "GET" || e.method === "DELETE" ? undefined : "{";
      const outcomes = await Promise.all(
        callers.map(async (c) => {
          const res = await app.api(e.method, path, {
            key: null,
            headers: { ...c.headers, ...(body ? { "content-type": "application/json" } : {}) },
            raw: body,
          });
          const missing = needs(need).filter((s) => !c.holds.has(s));
          return { c, res, missing };
        }),
      );
      for (const { c, res, missing } of outcomes) {
        const what = `${c.name}: ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, what).not.toBe(500);
        if (missing.length === 0) {
          expect([401, 403], what).not.toContain(res.status);
        } else {
          expect(res.status, what).toBe(403);
          expect(res.body.error.code, what).toBe("insufficient_scope");
          expect(missing.map(named), what).toContain(res.body.error.details.scope);
        }
      }
    });
  }
});
