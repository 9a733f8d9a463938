import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, COMPANIES, rowCount } from "./fixtures.ts";
import { ENDPOINTS } from "../../lib/http/schemas/index.ts";
import { makeKey } from "../support/principals.ts";

// The two rules the scope of an endpoint cannot say alone. A key limited to some bases reaches
// nothing of the others: not their paths (403 base_not_in_scope), not their runs, files or
// evaluations by id (404, as an unknown id), not the endpoints that span every base (403), and
// it lists only its own. And a write that would queue AI cells spends credits, so it needs
// runs:write as well as rows:write: refused before anything is written, only when cells would queue.

let app: TestApp;
let a: TestBase;
let b: TestBase;
let limited: string;
let rowsOnly: string;
const ids: Record<string, string> = {};

/** Endpoints that reach every base (or make one), written here rather than read from the declarations. */
const WORKSPACE_WIDE = [
  "POST /api/v1/bases",
  "POST /api/v1/bases/ai-configure-base",
  "GET /api/v1/credits",
  "GET /api/v1/webhooks",
  "POST /api/v1/webhooks",
  "GET /api/v1/webhooks/{webhookId}",
  "PATCH /api/v1/webhooks/{webhookId}",
  "DELETE /api/v1/webhooks/{webhookId}",
  "POST /api/v1/webhooks/{webhookId}/rotate-secret",
  "GET /api/v1/webhooks/{webhookId}/deliveries",
  "POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
  "GET /api/v1/secrets",
  "POST /api/v1/secrets",
  "DELETE /api/v1/secrets/{name}",
];

beforeAll(async () => {
  app = await createTestApp();
  a = await createBase(app, { ...COMPANIES, name: "Mine" });
  b = await createBase(app, { ...COMPANIES, name: "Theirs" });
  // Rows whose AI cell is queued: each base gets a run (no engine runs here, so it stays open).
  await addRows(app, a.baseId, [{ Company: "Acme" }]);
  await addRows(app, b.baseId, [{ Company: "Globex" }]);
  const prisma = app.rt.db.prisma;
  for (const base of [a, b]) {
    const run = await prisma.run.findFirstOrThrow({ where: { baseId: base.baseId }, select: { id: true } });
    ids[`run:${base.baseId}`] = run.id;
  }
  await prisma.storedFile.create({
    data: {
      id: "file_theirs0000000",
      workspaceId: app.workspaceA,
      baseId: b.baseId,
      name: "x.txt",
      contentType: "text/plain",
      size: 1,
      sha256: "0".repeat(64),
      storagePath: "file_theirs0000000",
    },
  });
  await prisma.evaluation.create({
    data: {
      id: "eval_theirs0000000",
      workspaceId: app.workspaceA,
      baseId: b.baseId,
      columnId: b.col.Summary,
      runId: ids[`run:${b.baseId}`],
      settings: {},
      estimatedCredits: 0,
    },
  });
  limited = await makeKey(app.rt, app.workspaceA, {
    scopes: [
      "rows:read",
      "rows:write",
      "schema:write",
      "runs:write",
      "webhooks:manage",
      "keys:manage",
      "secrets:manage",
    ],
    baseIds: [a.baseId],
  });
  rowsOnly = await makeKey(app.rt, app.workspaceA, { scopes: ["rows:read", "rows:write"] });
}, 60_000);
afterAll(() => app.close());

const send = (method: string, path: string, key: string, body?: unknown) => app.api(method, path, { key, body });
const refusal = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

describe("a key limited to some bases", () => {
  it("lists only its bases", async () => {
    const res = await send("GET", "/api/v1/bases", limited);
    expect(res.status).toBe(200);
    expect(res.body.bases.map((x: { baseId: string }) => x.baseId)).toEqual([a.baseId]);
  });

  it("is refused every endpoint under another base, before the request is read", async () => {
    const underBase = ENDPOINTS.filter((e) => e.path.includes("{baseId}"));
    expect(underBase.length).toBeGreaterThan(30);
    for (const e of underBase) {
      const path = e.path.replace("{baseId}", b.baseId).replace(/\{(\w+)\}/g, "$1_unknown");
      const res = await app.api(e.method, path, { key: limited, raw: e.method === "GET" ? undefined : "{" });
      expect(refusal(res), `${e.method} ${e.path}`).toEqual([403, "base_not_in_scope"]);
    }
  });

  it("is refused the endpoints that reach every base or make a new one", async () => {
    const declared = ENDPOINTS.filter((e) => e.allBases).map((e) => `${e.method} ${e.path}`);
    expect(declared.sort()).toEqual([...WORKSPACE_WIDE].sort());
    for (const line of WORKSPACE_WIDE) {
      const [method, template] = line.split(" ");
      const path = template.replace(/\{(\w+)\}/g, "$1_unknown");
      const res = await app.api(method, path, { key: limited, raw: method === "GET" ? undefined : "{" });
      expect(refusal(res), line).toEqual([403, "base_not_in_scope"]);
    }
  });

  it("finds no run, file or evaluation of another base, as for an unknown id", async () => {
    const theirRun = ids[`run:${b.baseId}`];
    expect(refusal(await send("GET", `/api/v1/runs/${theirRun}`, limited))).toEqual([404, "run_not_found"]);
    for (const action of ["cancel", "pause", "resume"]) {
      const res = await send("POST", `/api/v1/runs/${theirRun}/${action}`, limited, {});
      expect(refusal(res), action).toEqual([404, "run_not_found"]);
    }
    // Nothing happened to it: the workspace key still sees it running.
    expect((await send("GET", `/api/v1/runs/${theirRun}`, app.keyA)).body.status).toBe("running");
    const file = await send("GET", "/api/v1/files/file_theirs0000000", limited);
    expect(refusal(file)).toEqual([404, "file_not_found"]);
    const evaluation = await send("GET", "/api/v1/evaluations/eval_theirs0000000", limited);
    expect(refusal(evaluation)).toEqual([404, "evaluation_not_found"]);
  });

  it("reaches its own base, its runs, and the endpoints that are not about bases", async () => {
    expect((await send("GET", `/api/v1/bases/${a.baseId}/rows`, limited)).status).toBe(200);
    const run = await send("GET", `/api/v1/runs/${ids[`run:${a.baseId}`]}`, limited);
    expect(run.status, run.text).toBe(200);
    expect((await send("GET", "/api/v1/api-keys", limited)).status).toBe(200);
  });
});

describe("a write that would queue AI cells needs runs:write", () => {
  const add = (cells: Record<string, unknown>) =>
    send("POST", `/api/v1/bases/${a.baseId}/add-rows`, rowsOnly, { rows: [{ cells }] });

  it("Add Rows that would run the AI column is refused, naming runs:write, and writes nothing", async () => {
    const before = await rowCount(app, a.baseId);
    const res = await add({ Company: "Initech" });
    expect(refusal(res)).toEqual([403, "insufficient_scope"]);
    expect(res.body.error.details).toEqual({ scope: "runs:write" });
    expect(res.body.error.message).toContain("runs:write");
    expect(await rowCount(app, a.baseId)).toBe(before);
  });

  it("Add Rows that queues nothing (the AI cell given by hand) is allowed", async () => {
    const res = await add({ Company: "Hooli", Summary: "Written by hand" });
    expect(res.status, res.text).toBe(200);
  });

  it("Update Rows is refused when it would re-run an AI cell, allowed when it would not", async () => {
    const [row] = await addRows(app, a.baseId, [{ Company: "Umbrella", Summary: "By hand" }]);
    const update = (cells: Record<string, unknown>) =>
      send("POST", `/api/v1/bases/${a.baseId}/update-rows`, rowsOnly, { rows: [{ id: row.id, cells }] });
    expect(refusal(await update({ Summary: "" }))).toEqual([403, "insufficient_scope"]);
    // Company is an input of the AI column: changing it re-runs the column.
    expect(refusal(await update({ Company: "Umbrella Corp" }))).toEqual([403, "insufficient_scope"]);
    const plain = await update({ Employees: 12 });
    expect(plain.status, plain.text).toBe(200);
  });

  it("a review re-run is refused; accepting is not", async () => {
    const [row] = await addRows(app, a.baseId, [{ Company: "Stark", Summary: "By hand" }]);
    const review = (action: string) =>
      send("POST", `/api/v1/bases/${a.baseId}/review`, rowsOnly, {
        cells: [{ rowId: row.id, columnId: a.col.Summary, action }],
      });
    const rerun = await review("rerun");
    expect(refusal(rerun), rerun.text).toEqual([403, "insufficient_scope"]);
    expect(rerun.body.error.details).toEqual({ scope: "runs:write" });
    const accept = await review("accept");
    expect(accept.status, accept.text).toBe(200);
  });

  it("an import into a base with AI columns is refused before it is read, unless runAi=false", async () => {
    const importCsv = (query = "") =>
      app.api("POST", `/api/v1/bases/${a.baseId}/imports${query}`, {
        key: rowsOnly,
        raw: "Company\nWayne\n",
        headers: { "content-type": "text/csv" },
      });
    const refused = await importCsv();
    expect(refusal(refused)).toEqual([403, "insufficient_scope"]);
    expect(refused.body.error.message).toContain("runAi=false");
    const accepted = await importCsv("?runAi=false");
    expect(accepted.status, accepted.text).toBe(202);
  });

  it("with runs:write the same write queues its cells", async () => {
    const both = await makeKey(app.rt, app.workspaceA, { scopes: ["rows:read", "rows:write", "runs:write"] });
    const res = await send("POST", `/api/v1/bases/${a.baseId}/add-rows`, both, {
      rows: [{ cells: { Company: "Cyberdyne" } }],
    });
    expect(res.status, res.text).toBe(200);
  });
});
