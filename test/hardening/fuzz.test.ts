import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../../lib/db/work.ts";
import { createEvaluation } from "../../lib/domain/evaluations/evaluations.ts";
import { ERROR_CATALOG } from "../../lib/errors.ts";
import { apiRateLimiter, databaseBuckets, memoryBuckets } from "../../lib/auth/api-rate-limit.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { rawRequest, startEdgeServer, type EdgeServer } from "../support/edge-server.ts";
import { fuzzCases, SEED, type FuzzCase, type Ids } from "./fuzz-cases.ts";

// Over a thousand hostile requests across every endpoint and method, on a real socket behind the
// same edge as `npm start`. Whatever a client sends: no 5xx, no answer under /api that is not
// JSON, no stack trace, an error code from the catalog with its own status, and a refused request
// changes nothing that is stored, credits included (the database is fingerprinted around each).

let app: TestApp;
let edge: EdgeServer;
let ids: Ids;
let foreign: Ids;

// Everything a user owns. Left out: caches and counters that a refused request may touch by
// design (rate buckets, idempotency records, the search cache) and a key's last use.
const USER_TABLES = [
  "workspaces",
  "api_keys",
  "sessions",
  "sign_in_tokens",
  "bases",
  "sheets",
  "columns",
  "rows",
  "cells",
  "runs",
  "cell_runs",
  "credit_entries",
  "chat_messages",
  "webhook_endpoints",
  "webhook_messages",
  "webhook_attempts",
  "files",
  "views",
  "review_actions",
  "imports",
  "evaluations",
  "evaluation_items",
];

async function fingerprint(): Promise<string> {
  const parts = USER_TABLES.map(
    (t) => `SELECT '${t}' AS t, count(*)::int AS n, md5(coalesce(string_agg(x, ',' ORDER BY x), '')) AS h
            FROM (SELECT (to_jsonb(r) - 'last_used_at')::text AS x FROM ${t} r) s`,
  );
  const rows = await app.rt.db.prisma.$queryRawUnsafe<{ t: string; n: number; h: string }[]>(parts.join(" UNION ALL "));
  return rows.map((r) => `${r.t}:${r.n}:${r.h}`).join(" ");
}

/** One of each resource a path can name, made through the API with `key`. */
async function seed(key: string): Promise<Ids> {
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await app.api(method, path, { key, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const { baseId, col } = await createBase(app, {
    key,
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Employees", type: "number" },
      { name: "Summary", type: "long-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Summarise." },
    ],
  });
  const added = await api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    rows: [{ cells: { Company: "Acme", Employees: 10 } }, { cells: { Company: "Globex" } }],
  });
  const form = new FormData();
  form.set("file", new Blob(["Acme makes anvils."], { type: "text/plain" }), "notes.txt");
  const file = await fetch(`${edge.url}/api/v1/bases/${baseId}/files`, {
    method: "POST",
    headers: { "x-api-key": key },
    body: form,
  });
  expect(file.status).toBe(201);
  // An evaluation needs a verified cell; with no model configured here, one is marked so directly.
  await app.rt.db.prisma.$executeRawUnsafe(
    `UPDATE cells SET status = 'done', verified = true WHERE row_id = $1 AND column_id = $2`,
    added.rows[0].id,
    col.Summary,
  );
  // No model is configured here either, so the evaluation is made through the domain, which the API would refuse.
  const workspaceId = (await app.rt.db.prisma.base.findUniqueOrThrow({ where: { id: baseId } })).workspaceId;
  const policy = { ...app.rt.config.runs, defaultModel: undefined, checkModel: () => undefined, providers: [] };
  const evaluationId = (
    await inTransaction(app.rt, (w) => createEvaluation(w, workspaceId, baseId, col.Summary, {}, policy))
  ).id;
  return {
    baseId,
    evaluationId,
    rowId: added.rows[0].id,
    columnId: col.Employees,
    viewId: (await api("POST", `/api/v1/bases/${baseId}/views`, { name: "All" })).id,
    runId: added.runId,
    webhookId: (
      await api("POST", "/api/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["row.sheet.processed"] })
    ).id,
    keyId: (await api("POST", "/api/v1/api-keys", { name: "spare" })).id,
    fileId: ((await file.json()) as { fileId: string }).fileId,
  };
}

beforeAll(async () => {
  app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  edge = await startEdgeServer();
  ids = await seed(app.keyA);
  foreign = await seed(app.keyB);
}, 60_000);
afterAll(async () => {
  await edge?.close();
  await app?.close();
});

const isJson = (type: unknown) => /^application\/(problem\+)?json/.test(String(type ?? ""));
const nonJsonSuccess = (c: FuzzCase) =>
  c.endpoint?.responseContentType !== undefined && !isJson(c.endpoint.responseContentType);

describe("the fuzz suite", () => {
  it("answers every hostile request in JSON with a 4xx, and changes nothing it refuses", {
    timeout: 600_000,
  }, async () => {
    const cases = fuzzCases(ids, foreign, app.keyA, app.keyB);
    expect(cases.length).toBeGreaterThanOrEqual(1_000);
    const failures: string[] = [];
    const tally = { sent: 0, refused: 0, accepted: 0, byStatus: {} as Record<number, number> };
    let before = await fingerprint();
    for (const c of cases) {
      const res = await rawRequest(edge.url, c);
      const label = `${c.kind}: ${c.method} ${c.path.slice(0, 120)} → ${res.status}`;
      tally.sent++;
      tally.byStatus[res.status] = (tally.byStatus[res.status] ?? 0) + 1;
      const type = res.headers["content-type"];
      // No model is configured here: a request that reaches the assistant is told so (503), as documented.
      const unconfigured = res.status === 503 && res.text.includes('"ai_not_configured"');
      if (res.status >= 500 && !unconfigured) failures.push(`${label} (a server error: ${res.text.slice(0, 200)})`);
      else if (c.expect !== undefined && res.status !== c.expect)
        failures.push(`${label} (expected ${c.expect}: ${res.text.slice(0, 200)})`);
      if (res.status !== 204 && c.method !== "HEAD" && !isJson(type) && !(res.status < 300 && nonJsonSuccess(c)))
        failures.push(`${label} (not JSON: ${type})`);
      if (/\bat \S+ \(|\.tsx?:\d+/.test(res.text)) failures.push(`${label} (a stack trace leaked)`);
      const after = await fingerprint();
      if (res.status >= 400) {
        tally.refused++;
        const code = (JSON.parse(res.text || "{}") as { error?: { code?: string } }).error?.code as
          | keyof typeof ERROR_CATALOG
          | undefined;
        if (!code || !ERROR_CATALOG[code]) failures.push(`${label} (no catalog code: ${res.text.slice(0, 200)})`);
        else if (ERROR_CATALOG[code].status !== res.status)
          failures.push(`${label} (${code} belongs with ${ERROR_CATALOG[code].status})`);
        if (after !== before) failures.push(`${label} (refused, yet stored data changed)`);
      } else tally.accepted++;
      before = after;
    }
    console.log(
      `fuzz (seed ${SEED}): ${tally.sent} requests, ${tally.refused} refused, ${tally.accepted} accepted; by status`,
      tally.byStatus,
    );
    expect(failures, failures.join("\n")).toEqual([]);
  });

  // Every eighth of the same requests against a low limit (API_RATE_LIMIT=2, API_RATE_BURST=5,
  // below the pace of this loop even on a slow machine): the limit answers in JSON with
  // Retry-After and the RateLimit fields, never with a 500, and a refusal changes nothing.
  it("answers them past a low rate limit with 429 rate_limited and Retry-After, never a 5xx", {
    timeout: 600_000,
  }, async () => {
    const cases = fuzzCases(ids, foreign, app.keyA, app.keyB).filter((_, i) => i % 8 === 0);
    const limit = { perSecond: 2, burst: 5 };
    const previous = app.rt.apiLimiter;
    app.rt.apiLimiter = app.rt.db.exclusive
      ? apiRateLimiter(limit, memoryBuckets())
      : apiRateLimiter(limit, databaseBuckets(app.rt.db.prisma), 100);
    const failures: string[] = [];
    const byStatus: Record<number, number> = {};
    try {
      let before = await fingerprint();
      for (const c of cases) {
        const res = await rawRequest(edge.url, c);
        const label = `${c.kind}: ${c.method} ${c.path.slice(0, 120)} → ${res.status}`;
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
        const unconfigured = res.status === 503 && res.text.includes('"ai_not_configured"');
        if (res.status >= 500 && !unconfigured) failures.push(`${label} (a server error: ${res.text.slice(0, 200)})`);
        else if (res.status === 429) {
          const code =
            c.method === "HEAD" ? "rate_limited" : (JSON.parse(res.text) as { error: { code: string } }).error.code;
          if (code !== "rate_limited" || !(Number(res.headers["retry-after"]) >= 1) || !res.headers.ratelimit)
            failures.push(
              `${label} (a 429 without rate_limited, Retry-After and RateLimit: ${res.text.slice(0, 200)})`,
            );
        } else if (c.expect !== undefined && res.status !== c.expect)
          failures.push(`${label} (expected ${c.expect} or 429: ${res.text.slice(0, 200)})`);
        const after = await fingerprint();
        if (res.status >= 400 && after !== before) failures.push(`${label} (refused, yet stored data changed)`);
        before = after;
      }
    } finally {
      app.rt.apiLimiter = previous;
    }
    console.log(`fuzz at 2 requests/s (seed ${SEED}): ${cases.length} requests; by status`, byStatus);
    expect(byStatus[429] ?? 0, "the low limit was reached").toBeGreaterThan(0);
    expect(failures, failures.join("\n")).toEqual([]);
  });
});
