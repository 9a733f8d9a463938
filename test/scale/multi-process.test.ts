import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { waitFor } from "../support/wait.ts";
import { collectSse, freshPostgres, pgAdminUrl, skipMessage, startWorker, type WorkerProcess } from "./support.ts";

// One web process (WORKER_IN_PROCESS=false) and two `npm run worker` processes on one fresh
// PostgreSQL. 1,000 rows × 2 AI columns (the second depends on the first) = 2,000 cells; one
// worker is killed with -9 mid-run. Then two new workers with AI_RPM: the limit holds across them.

skipMessage("scale-out multi-process suite");

const KEY = "cw_scalescalescalescalescalescalescale00";
const ROWS = 1_000;
const CREDITS = 100_000;
const WORKER_SLOTS = 16;

describe.skipIf(!pgAdminUrl)("web and worker processes on PostgreSQL", () => {
  let llm: FakeLlm;
  let receiver: WebhookReceiver;
  let db: { url: string; drop: () => Promise<void> };
  let sqlClient: pg.Client;
  let web: ServerProcess | undefined;
  const workers: WorkerProcess[] = [];
  const sql = async <T = any>(q: string, args: unknown[] = []) => (await sqlClient.query(q, args)).rows as T[];

  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: db.url,
    API_KEY: KEY,
    INITIAL_CREDITS: String(CREDITS),
    OPENAI_BASE_URL: llm.baseUrl,
    AI_MODEL: "openai:fake",
    AI_CONCURRENCY: "64",
    WORKER_CONCURRENCY: String(WORKER_SLOTS),
    AI_LEASE_MS: "4000",
    AI_RETRY_BASE_MS: "200",
    ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1",
    WEBHOOK_RETRY_SCHEDULE: "0,1000,1000,1000,1000",
    ...extra,
  });

  async function api(method: string, p: string, body?: unknown) {
    const res = await fetch(`${web!.url}${p}`, {
      method,
      headers: { "x-api-key": KEY, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const cellCounts = async (baseId: string) =>
    Object.fromEntries(
      (
        await sql<{ status: string; n: number }>(
          `SELECT c.status, count(*)::int AS n FROM cells c JOIN sheets s ON s.id = c.sheet_id WHERE s.base_id = $1 GROUP BY c.status`,
          [baseId],
        )
      ).map((r) => [r.status, r.n]),
    ) as Record<string, number>;

  beforeAll(async () => {
    llm = await startFakeLlm({ latencyMs: 60 });
    receiver = await startWebhookReceiver();
    db = await freshPostgres();
    sqlClient = new pg.Client({ connectionString: db.url });
    await sqlClient.connect();
    const port = await pickServerPort();
    web = await startServerProcess(env({ WORKER_IN_PROCESS: "false" }), port);
  }, 300_000);
  afterAll(async () => {
    for (const w of workers) await w.kill9();
    await web?.kill9();
    await sqlClient?.end();
    await db?.drop();
    await receiver?.close();
    await llm?.close();
  });

  it("two workers finish 2,000 cells despite kill -9 of one; each charged and delivered once; SSE on the web process sees them", {
    timeout: 240_000,
  }, async () => {
    const health = await fetch(`${web!.url}/api/health`).then((r) => r.json());
    expect(health).toMatchObject({ ok: true, vendor: "postgres", queue: { engine: "pg-boss", reachable: true } });
    const base = await api("POST", "/api/v1/bases", {
      baseName: "Scale",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
        { name: "Second", isAiEnabled: true, inputColumns: ["First"] },
      ],
    });
    expect(base.status).toBe(201);
    const baseId = base.body.baseId as string;
    const hook = await api("POST", "/api/v1/webhooks", { url: receiver.url, events: ["row.sheet.processed"] });
    expect(hook.status).toBe(201);
    receiver.setSecrets(hook.body.secret);
    const sse = collectSse(`${web!.url}/api/v1/bases/${baseId}/events`, { "x-api-key": KEY });
    await sse.ready;

    const add = await api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Company: `Company ${i}` } })),
    });
    expect(add.status).toBe(200);
    // The web process wrote the jobs in the request's transaction: one per ready cell (First;
    // Second waits for it), before any worker exists.
    const [jobs] = await sql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'cellwright-cells' AND state = 'created'`,
    );
    expect(jobs.n).toBe(ROWS);
    workers.push(await startWorker(env()), await startWorker(env()));

    await waitFor(async () => ((await cellCounts(baseId)).done ?? 0) >= 500, "500 cells done", 120_000, 100);
    await workers[0].kill9();
    const atKill = (await cellCounts(baseId)).done ?? 0;
    expect(atKill).toBeLessThan(2 * ROWS);

    const final = await waitFor(
      async () => {
        const c = await cellCounts(baseId);
        return c.done === 2 * ROWS ? c : undefined;
      },
      "every cell done after the kill",
      150_000,
      250,
    );
    expect(final).toEqual({ done: 2 * ROWS });
    // A worker holds each slot until its answer is stored, so the killed one's crash re-asks at most
    // one cell per slot: every request past one per cell was such a re-ask.
    const askedAgain = llm.totalRequests - 2 * ROWS;
    console.log(`[scale] kill -9 of a worker with ${WORKER_SLOTS} slots: ${askedAgain} cell(s) asked again`);
    expect(askedAgain).toBeGreaterThanOrEqual(0);
    expect(askedAgain).toBeLessThanOrEqual(WORKER_SLOTS);
    // The fake model echoes a cell's inputs: each Second embeds its row's First.
    const rows = (await api("GET", `/api/v1/bases/${baseId}/rows`)).body.rows as any[];
    expect(rows).toHaveLength(ROWS);
    for (const r of rows) expect(r.cells.Second).toContain(JSON.stringify(r.cells.First).slice(1, -1));

    // Credits: one ledger entry per cell, and the balance moved by exactly that much.
    const [charges] = await sql(
      `SELECT count(*)::int AS n, count(DISTINCT (row_id, column_id))::int AS cells, -sum(amount)::int AS spent FROM credit_entries WHERE reason = 'cell_run' AND base_id = $1`,
      [baseId],
    );
    expect(charges).toEqual({ n: 2 * ROWS, cells: 2 * ROWS, spent: 2 * ROWS });
    const [ws] = await sql(`SELECT credits::int AS credits FROM workspaces WHERE name = 'default'`);
    expect(ws.credits).toBe(CREDITS - 2 * ROWS);

    // Webhooks: one outbox message (one webhook-id) per processed row, each delivered.
    await waitFor(() => receiver.processed.size >= ROWS, "every row.sheet.processed delivered", 60_000, 100);
    const messages = await sql<{ id: string; status: string }>(
      `SELECT id, status FROM webhook_messages WHERE event_type = 'row.sheet.processed'`,
    );
    expect(messages).toHaveLength(ROWS);
    expect(new Set(receiver.processed.keys())).toEqual(new Set(messages.map((m) => m.id)));
    const deliveredRows = [...receiver.processed.values()].map((d) => d.payload.data.row.id);
    expect(new Set(deliveredRows).size).toBe(ROWS);
    expect(deliveredRows.length).toBe(ROWS);
    expect(receiver.received.length).toBeGreaterThanOrEqual(ROWS);
    expect(receiver.received.every((d) => d.verified)).toBe(true);

    // Realtime: the web process never ran a cell, yet its SSE client saw the workers' results.
    // Only events of a batch committed in the instant before the kill can be lost.
    const doneSeen = new Set(
      sse.events
        .filter((e) => e.type === "cell.updated" && e.data.status === "done")
        .map((e) => `${e.data.rowId}/${e.data.columnId}`),
    );
    console.log(
      `[scale] done at kill: ${atKill}; SSE saw ${doneSeen.size}/${2 * ROWS} cells done; webhook duplicates ${receiver.duplicates}`,
    );
    expect(doneSeen.size).toBeGreaterThanOrEqual(2 * ROWS - 100);
    expect(sse.events.filter((e) => e.type === "row.sheet.processed").length).toBeGreaterThanOrEqual(ROWS - 100);
    sse.close();

    // Graceful shutdown: SIGTERM, exit 0, nothing left leased to the worker.
    expect(await workers[1].stop()).toBe(0);
    expect(await sql(`SELECT 1 FROM cells WHERE status = 'running'`)).toHaveLength(0);
  });

  it("AI_RPM holds across two workers", { timeout: 120_000 }, async () => {
    // 300 a minute: 5 a second with bursts of 30. 80 cells need ≥ 10 s under one shared bucket;
    // per-process buckets would let them through in 2 s, 70 in the first second.
    const limited = env({ AI_RPM: "300" });
    workers.push(await startWorker(limited), await startWorker(limited));
    const base = await api("POST", "/api/v1/bases", {
      baseName: "Limited",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
      ],
    });
    llm.reset();
    const t0 = Date.now();
    const add = await api("POST", `/api/v1/bases/${base.body.baseId}/add-rows`, {
      rows: Array.from({ length: 80 }, (_, i) => ({ cells: { Company: `Co ${i}` } })),
    });
    expect(add.status).toBe(200);
    await waitFor(async () => (await cellCounts(base.body.baseId)).done === 80, "80 limited cells done", 60_000, 100);
    const wall = Date.now() - t0;
    const perSecond = llm.maxRequestsPerWindow(1_000);
    const perTwo = llm.maxRequestsPerWindow(2_000);
    console.log(`[scale] rate limit: ${llm.totalRequests} requests in ${wall} ms; max ${perSecond}/1 s, ${perTwo}/2 s`);
    expect(llm.totalRequests).toBe(80);
    expect(perSecond).toBeLessThanOrEqual(30 + 5 + 2);
    expect(perTwo).toBeLessThanOrEqual(30 + 10 + 2);
    expect(wall).toBeGreaterThanOrEqual(((80 - 30) / 5) * 1000 - 500);
    for (const w of workers.slice(2)) expect(await w.stop()).toBe(0);
  });
});
