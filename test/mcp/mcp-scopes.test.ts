import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { makeKey } from "../support/principals.ts";
import { call, callError, connect } from "./helpers.ts";

// /mcp follows the API's permissions: tools/list shows only the tools the calling key may call,
// and calling another is a tool error with the API's code and the scope it needs, before any
// endpoint is called. A key limited to some bases sees only those, and not the tools that make
// bases. (Each tool call is also authorised by the endpoint it calls, as any REST call is.)

let app: TestApp;
let mine: TestBase;
let theirs: TestBase;
const clients: Client[] = [];

/** The tools a rows:read key may call, written here from the roles rather than read from the tools. */
const READ_TOOLS = [
  "list_bases",
  "get_base_structure",
  "query_rows",
  "get_row",
  "estimate_run",
  "get_run",
  "column_quality",
  "column_steps",
  "get_evaluation",
  "get_find",
  "find_candidates",
  "list_members",
  "list_schedules",
  "row_history",
];

async function client(scopes: string[], baseIds?: string[]): Promise<Client> {
  const c = await connect(await makeKey(app.rt, app.workspaceA, { scopes, baseIds }));
  clients.push(c);
  return c;
}

const columns = [{ name: "Company", type: "short-text", isPrimary: true }];
const toolNames = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

beforeAll(async () => {
  app = await createTestApp();
  mine = await createBase(app, { name: "Mine", columns });
  theirs = await createBase(app, { name: "Theirs", columns });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await app.close();
});

describe("MCP tools by scope", () => {
  it("a rows:read key lists only the reading tools", async () => {
    expect(await toolNames(await client(["rows:read"]))).toEqual([...READ_TOOLS].sort());
  });

  it("a rows:read key calling a writing tool gets insufficient_scope naming the scope, and nothing is written", async () => {
    const c = await client(["rows:read"]);
    const error = await callError(c, "add_rows", { baseId: mine.baseId, rows: [{ cells: { Company: "Acme" } }] });
    expect(error.code).toBe("insufficient_scope");
    expect(error.details).toEqual({ scope: "rows:write" });
    expect(error.message).toContain("rows:write");
    const rows = await app.api("GET", `/api/v1/bases/${mine.baseId}/rows`);
    expect(rows.body.rows).toEqual([]);
    // Reading still works.
    expect((await call(c, "query_rows", { baseId: mine.baseId })).result.rows).toEqual([]);
  });

  it("the assistant's tool needs runs:write as well as schema:write, since it spends credits", async () => {
    const schemaOnly = await toolNames(await client(["schema:write"]));
    expect(schemaOnly).toEqual(["create_base", "manage_column", "preview_http_column"]);
    const error = await callError(await client(["schema:write"]), "configure_base", { messages: [] });
    expect([error.code, error.details]).toEqual(["insufficient_scope", { scope: "runs:write" }]);
    expect(await toolNames(await client(["schema:write", "runs:write"]))).toContain("configure_base");
  });

  it("a runs:write key lists the tools that spend credits", async () => {
    expect(await toolNames(await client(["runs:write"]))).toEqual([
      "cancel_run",
      "create_schedule",
      "evaluate_column",
      "extend_find",
      "find_rows",
      "run_cells",
      "trigger_schedule",
    ]);
  });

  it("a key limited to one base sees that base only, and not the tools that make bases", async () => {
    const c = await client(["rows:read", "rows:write", "schema:write", "runs:write"], [mine.baseId]);
    const names = await toolNames(c);
    expect(names).not.toContain("create_base");
    expect(names).not.toContain("configure_base");
    expect(names).toContain("manage_column");
    const listed = await call(c, "list_bases");
    expect(listed.result.bases.map((b: { baseId: string }) => b.baseId)).toEqual([mine.baseId]);
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`cellwright://bases/${mine.baseId}/structure`]);
    const other = await callError(c, "get_base_structure", { baseId: theirs.baseId });
    expect(other.code).toBe("base_not_in_scope");
    const create = await callError(c, "create_base", { baseName: "New", columns });
    expect(create.code).toBe("base_not_in_scope");
  });
});
