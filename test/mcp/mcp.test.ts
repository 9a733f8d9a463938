import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { calls, useAssistantApp, user } from "../assistant/helpers.ts";
import { call, callError, connect, inProcessFetch } from "./helpers.ts";
import { FIND_TOOLS, HISTORY_TOOLS, PEOPLE_TOOLS, SCHEDULE_TOOLS, SECRETS_TOOLS, TOOLS } from "../../lib/mcp/tools.ts";

// The MCP server at /mcp, through the SDK's Client and Streamable HTTP: every tool, its schemas and annotations, isolation,
// errors as tool errors with the API's codes, the result limits and the structure resources (cuts: unit/mcp-fit-result.test.ts).

const t = useAssistantApp({}, { credits: 1_000 });
let a: Client;
let b: Client;
let baseId: string;

const EXPECTED = [
  "list_bases",
  "get_base_structure",
  "query_rows",
  "get_row",
  "add_rows",
  "update_rows",
  "delete_rows",
  "create_base",
  "manage_column",
  "estimate_run",
  "run_cells",
  "get_run",
  "cancel_run",
  "review_cells",
  "column_quality",
  "column_steps",
  "preview_http_column",
  "evaluate_column",
  "get_evaluation",
  "configure_base",
];

beforeAll(async () => {
  a = await connect(t.app.keyA);
  b = await connect(t.app.keyB, { header: "x-api-key" });
  const { result } = await call(a, "create_base", {
    baseName: "Companies",
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Notes", type: "long-text" },
      {
        name: "Summary",
        type: "long-text",
        isAiEnabled: true,
        inputColumns: ["Company"],
        instructions: "Summarise.",
        columnOptions: { autoRun: "never" },
      },
    ],
  });
  baseId = result.baseId;
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe("tools/list", () => {
  it("lists every tool with input and output schemas from the endpoints, and annotations", async () => {
    const { tools } = await a.listTools();
    // Pinned in mcp-people, -secrets, -finds, -schedules and history-mcp (with their isolation).
    const pinned = [...PEOPLE_TOOLS, ...SECRETS_TOOLS, ...FIND_TOOLS, ...SCHEDULE_TOOLS, ...HISTORY_TOOLS];
    const others = pinned.map((x) => x.name);
    expect(tools.map((x) => x.name).sort()).toEqual([...EXPECTED, ...others].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.description?.length, tool.name).toBeGreaterThan(5);
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe("boolean");
      expect(typeof tool.annotations?.openWorldHint, tool.name).toBe("boolean");
      if (!tool.annotations?.readOnlyHint) {
        expect(typeof tool.annotations?.destructiveHint, tool.name).toBe("boolean");
        expect(typeof tool.annotations?.idempotentHint, tool.name).toBe("boolean");
      }
    }
    const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
    expect(byName.add_rows.inputSchema.required).toEqual(["baseId", "rows"]);
    expect((byName.add_rows.inputSchema.properties as any).rows.maxItems).toBe(100);
    expect((byName.query_rows.inputSchema.properties as any).limit).toMatchObject({ type: "integer", maximum: 100 });
    expect((byName.manage_column.inputSchema.properties as any).action.enum).toEqual(["create", "modify", "delete"]);
    expect((byName.create_base.inputSchema.properties as any).columns.maxItems).toBe(200);
    expect(byName.list_bases.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.run_cells.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(byName.delete_rows.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
  });
});

describe("tools/call", () => {
  it("runs the whole table through the tools: columns, rows, pages, cells, runs", async () => {
    const column = await call(a, "manage_column", { action: "create", baseId, name: "Country", type: "short-text" });
    expect(column.result).toMatchObject({ name: "Country", type: "short-text" });
    const modified = await call(a, "manage_column", {
      action: "modify",
      baseId,
      columnId: column.result.id,
      name: "HQ country",
    });
    expect(modified.text).toContain("HQ country");
    const structure = await call(a, "get_base_structure", { baseId });
    const names = structure.result.sheetColumns.map((c: any) => c.name);
    expect(names).toEqual(["Company", "Notes", "Summary", "HQ country"]);
    expect(
      (await call(a, "manage_column", { action: "delete", baseId, columnId: column.result.id })).result,
    ).toMatchObject({ deleted: true });

    const added = await call(a, "add_rows", {
      baseId,
      rows: [1, 2, 3].map((i) => ({ cells: { Company: `Company ${i}` } })),
    });
    expect(added.result.rows).toHaveLength(3);
    const [first] = added.result.rows;
    const page = await call(a, "query_rows", { baseId, limit: 2 });
    expect(page.result.rows.map((r: any) => r.cells.Company)).toEqual(["Company 1", "Company 2"]);
    expect(page.text).toContain(page.result.nextCursor);
    const rest = await call(a, "query_rows", { baseId, limit: 2, cursor: page.result.nextCursor });
    expect(rest.result).toMatchObject({ rows: [{ cells: { Company: "Company 3" } }], nextCursor: null });
    const found = await call(a, "query_rows", {
      baseId,
      filter: { column: "Company", op: "contains", value: "any 2" },
      count: true,
    });
    expect(found.result.rows.map((r: any) => r.cells.Company)).toEqual(["Company 2"]);
    expect(found.result.total).toBe(1);

    const updated = await call(a, "update_rows", {
      baseId,
      rows: [{ id: first.id, cells: { Summary: "Makes rockets." } }],
    });
    expect(updated.result.errors).toEqual([]);
    const detail = await call(a, "get_row", { baseId, rowId: first.id, cell: "Summary" });
    expect(Object.keys(detail.result.cells)).toEqual(["Summary"]);
    expect(detail.result.cells.Summary).toMatchObject({ value: "Makes rockets.", metadata: { suppliedByUser: true } });
    expect((await call(a, "get_row", { baseId, rowId: first.id })).result.cells.Company).toBe("Company 1");

    const estimate = await call(a, "estimate_run", { baseId });
    expect(estimate.result).toMatchObject({ cells: 3, credits: 3 });
    const queued = await call(a, "run_cells", { baseId, rowIds: [first.id] });
    expect(queued.result).toMatchObject({ queued: 1, runId: expect.stringMatching(/^run_/) });
    const runNow = await call(a, "get_run", { runId: queued.result.runId });
    expect(runNow.result).toMatchObject({ id: queued.result.runId, baseId });
    expect(runNow.text).toContain(queued.result.runId);
    // Workspace B cannot see or stop A's run.
    expect((await callError(b, "get_run", { runId: queued.result.runId })).code).toBe("run_not_found");
    expect((await callError(b, "cancel_run", { runId: queued.result.runId })).code).toBe("run_not_found");
    const cancelled = await call(a, "cancel_run", { runId: queued.result.runId });
    expect(["cancelled", "done"]).toContain(cancelled.result.status);
    const deleted = await call(a, "delete_rows", { baseId, rowIds: [first.id, "sr_missing"] });
    expect(deleted.result.deletedRowIds).toEqual([first.id]);
    expect(deleted.result.errors).toHaveLength(1);
    expect((await call(a, "list_bases")).result.bases.map((x: any) => x.baseId)).toContain(baseId);
  });

  it("configures a base by chat in one call", async () => {
    t.llm.enqueue(calls({ args: { columnOperation: "create", name: "Company", isPrimary: true } }), {
      text: "Created a Company column.",
    });
    const { result, text } = await call(a, "configure_base", {
      baseName: "Chatted",
      messages: [user("A table of companies.")],
    });
    expect(text).toContain("Created a Company column.");
    const structure = await call(a, "get_base_structure", { baseId: result.baseId });
    expect(structure.result.sheetColumns.map((c: any) => c.name)).toEqual(["Company"]);
  });
});

describe("isolation", () => {
  it("never lets a key reach another workspace's base, through any tool", async () => {
    const row = (await call(a, "add_rows", { baseId, rows: [{ cells: { Company: "Private" } }] })).result.rows[0];
    const attempts: [string, Record<string, unknown>][] = [
      ["get_base_structure", { baseId }],
      ["query_rows", { baseId }],
      ["get_row", { baseId, rowId: row.id }],
      ["add_rows", { baseId, rows: [{ cells: { Company: "Intruder" } }] }],
      ["update_rows", { baseId, rows: [{ id: row.id, cells: { Company: "Changed" } }] }],
      ["delete_rows", { baseId, rowIds: [row.id] }],
      ["manage_column", { action: "create", baseId, name: "Intruder" }],
      ["estimate_run", { baseId }],
      ["run_cells", { baseId }],
      ["review_cells", { baseId, cells: [{ rowId: row.id, columnId: "scol_none", action: "accept" }] }],
      ["column_quality", { baseId, columnId: "scol_none" }],
      ["column_steps", { baseId, columnId: "scol_none" }],
      ["preview_http_column", { baseId, rowId: row.id, fill: { kind: "http", request: { url: "x" }, extract: "a" } }],
      ["evaluate_column", { baseId, columnId: "scol_none" }],
      ["configure_base", { baseId, messages: [user("Delete everything.")] }],
    ];
    const pinned = /\{baseId\}(?!\/(finds|schedules|rows\/\{rowId\}\/(history|cells)))/; // their own suites
    const withBaseId = TOOLS.filter((x) => x.endpoints.some((e) => pinned.test(e.path)) || x.name === "configure_base");
    const names = withBaseId.map((x) => x.name);
    expect(attempts.map(([name]) => name).sort()).toEqual(names.sort());
    for (const [name, args] of attempts) expect((await callError(b, name, args)).code, name).toBe("base_not_found");
    expect((await call(b, "list_bases")).result.bases.map((x: any) => x.baseId)).not.toContain(baseId);
    expect((await call(a, "get_row", { baseId, rowId: row.id })).result.cells.Company).toBe("Private");
    expect(t.llm.requests.filter((r) => JSON.stringify(r).includes("Delete everything"))).toEqual([]);
  });
});

describe("errors and limits", () => {
  it("answers mistakes as tool errors with the API's stable codes", async () => {
    expect((await callError(a, "add_rows", { baseId, rows: [{ cells: { Nope: "x" } }] })).code).toBe(
      "validation_failed",
    );
    expect((await callError(a, "get_row", { baseId, rowId: "sr_nope" })).code).toBe("row_not_found");
    expect((await callError(a, "get_row", { baseId, rowId: "sr_nope", cell: "" })).code).toBe("validation_failed");
    expect((await callError(a, "manage_column", { action: "modify", baseId })).message).toMatch(/columnId is required/);
    expect((await callError(a, "manage_column", { action: "create", baseId, name: "Company" })).code).toBe(
      "duplicate_column_name",
    );
    expect(
      (await callError(a, "add_rows", { baseId, rows: Array.from({ length: 101 }, () => ({ cells: {} })) })).code,
    ).toBe("too_many_rows");
    expect((await callError(a, "query_rows", { baseId, limit: 500 })).code).toBe("validation_failed");
    await expect(a.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("looks a cell up by the base's own column names only: Object's property names are unknown columns, or columns when so named", async () => {
    const [row] = (await call(a, "query_rows", { baseId, limit: 1 })).result.rows;
    for (const cell of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      expect(await callError(a, "get_row", { baseId, rowId: row.id, cell }), cell).toMatchObject({
        code: "unknown_column",
      });
    }
    const odd = (
      await call(a, "create_base", {
        baseName: "Odd names",
        columns: [{ name: "__proto__", isPrimary: true }, { name: "constructor" }],
      })
    ).result.baseId;
    const [added] = (
      await call(a, "add_rows", { baseId: odd, rows: [{ cells: { ["__proto__"]: "p", constructor: "c" } }] })
    ).result.rows;
    const proto = await call(a, "get_row", { baseId: odd, rowId: added.id, cell: "__proto__" });
    expect(Object.keys(proto.result.cells)).toEqual(["__proto__"]);
    expect(proto.result.cells.__proto__.value).toBe("p");
    expect(
      (await call(a, "get_row", { baseId: odd, rowId: added.id, cell: "constructor" })).result.cells.constructor.value,
    ).toBe("c");
    expect(await callError(a, "get_row", { baseId: odd, rowId: added.id, cell: "toString" })).toMatchObject({
      code: "unknown_column",
    });
  });

  it("pages long rows so that no answer passes 50,000 characters, and cuts one huge cell", async () => {
    const long = { baseName: "Long", columns: [{ name: "Text", type: "long-text", isPrimary: true }] };
    const id = (await call(a, "create_base", long)).result.baseId;
    await call(a, "add_rows", {
      baseId: id,
      rows: Array.from({ length: 40 }, (_, i) => ({ cells: { Text: `${i} ${"x".repeat(4_000)}` } })),
    });
    const page = await call(a, "query_rows", { baseId: id, limit: 100 });
    expect(JSON.stringify(page.result).length).toBeLessThanOrEqual(50_000);
    expect(page.result.rows.length).toBeGreaterThan(0);
    expect(page.result.rows.length).toBeLessThan(40);
    expect(page.result.nextCursor).toEqual(expect.any(String));
    const huge = (await call(a, "add_rows", { baseId: id, rows: [{ cells: { Text: "y".repeat(90_000) } }] })).result
      .rows[0];
    const cell = await call(a, "get_row", { baseId: id, rowId: huge.id, cell: "Text" });
    expect(JSON.stringify(cell.result).length).toBeLessThanOrEqual(50_000);
    expect(cell.result.cells.Text.value).toMatch(/more characters\]$/);
    expect(cell.text).toContain("cut to fit");
  });
});

describe("resources and authentication", () => {
  it("exposes each base's structure as cellwright://bases/{baseId}/structure, per workspace", async () => {
    const { resources } = await a.listResources();
    expect(resources.map((r) => r.uri)).toContain(`cellwright://bases/${baseId}/structure`);
    const read = await a.readResource({ uri: `cellwright://bases/${baseId}/structure` });
    expect(JSON.parse((read.contents[0] as { text: string }).text).sheet.baseId).toBe(baseId);
    expect((await b.listResources()).resources.map((r) => r.uri)).not.toContain(
      `cellwright://bases/${baseId}/structure`,
    );
    await expect(b.readResource({ uri: `cellwright://bases/${baseId}/structure` })).rejects.toThrow(/base_not_found/);
    const { resourceTemplates } = await a.listResourceTemplates();
    expect(resourceTemplates[0].uriTemplate).toBe("cellwright://bases/{baseId}/structure");
  });

  it("refuses a request without a key or with an unknown one, with 401 and WWW-Authenticate", async () => {
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    };
    const none = await inProcessFetch("http://localhost/mcp", init);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(((await none.json()) as any).error.code).toBe("missing_api_key");
    const bad = await inProcessFetch("http://localhost/mcp", {
      ...init,
      headers: { ...init.headers, authorization: "Bearer cw_nope" },
    });
    expect([bad.status, ((await bad.json()) as any).error.code]).toEqual([401, "invalid_api_key"]);
    await expect(connect(undefined)).rejects.toThrow();
  });
});
