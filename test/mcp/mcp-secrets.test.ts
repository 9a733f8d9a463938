import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestApp, type TestApp } from "../support/app.ts";
import { makeKey } from "../support/principals.ts";
import { call, callError, connect } from "./helpers.ts";

// The secrets tools over MCP: the REST endpoints' answers, refusals and audit entries, and no
// answer or summary carrying a value (the canary suite sweeps them too: api/secrets-canary.test.ts).

let app: TestApp;
let owner: Client;
let other: Client;
let reader: Client;
const SECRETS = ["create_secret", "delete_secret", "list_secrets"];
const VALUE = "mcp-secret-value-0123456789";

beforeAll(async () => {
  app = await createTestApp();
  owner = await connect(app.keyA);
  other = await connect(app.keyB);
  reader = await connect(await makeKey(app.rt, app.workspaceA, { scopes: ["rows:read", "schema:write"] }));
});
afterAll(async () => {
  for (const c of [owner, other, reader]) await c.close();
  await app.close();
});

describe("secrets tools", () => {
  it("are listed", async () => {
    const names = (await owner.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => SECRETS.includes(n)).sort()).toEqual(SECRETS);
  });

  it("create, list and delete as REST does, never answering the value", async () => {
    const created = await call(owner, "create_secret", { name: "MCP_TOKEN", value: VALUE });
    expect(created.result).toEqual({ name: "MCP_TOKEN", createdAt: expect.any(String), last4: "6789" });
    expect(created.text).toContain("{{secret:MCP_TOKEN}}");
    const listed = await call(owner, "list_secrets");
    expect(listed.result).toEqual((await app.api("GET", "/api/v1/secrets")).body);
    expect(listed.text).toBe("1 secret: MCP_TOKEN");
    const dup = await callError(owner, "create_secret", { name: "MCP_TOKEN", value: VALUE });
    expect(dup.code).toBe("duplicate_secret");
    expect((await callError(owner, "create_secret", { name: "mcp", value: "v" })).code).toBe("validation_failed");
    expect((await callError(other, "delete_secret", { name: "MCP_TOKEN" })).code).toBe("secret_not_found");
    expect((await call(owner, "delete_secret", { name: "MCP_TOKEN" })).result).toEqual({
      name: "MCP_TOKEN",
      deleted: true,
    });
    expect((await call(owner, "list_secrets")).text).toBe("No secrets.");
    for (const r of [created, listed, dup]) expect(JSON.stringify(r)).not.toContain(VALUE);
    const audit = await app.api("GET", "/api/v1/audit?action=secret.&targetId=MCP_TOKEN");
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(["secret.delete", "secret.create"]);
  });

  it("need secrets:manage", async () => {
    expect((await callError(reader, "list_secrets")).code).toBe("insufficient_scope");
    expect((await callError(reader, "create_secret", { name: "X", value: "v" })).code).toBe("insufficient_scope");
  });
});
