import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { freshPostgres, pgAdminUrl, skipMessage, startWorker, type WorkerProcess } from "./support.ts";

// A run's credit cap across processes: one web process and two workers of 16 slots each on one
// PostgreSQL store answers of one run at the same moment, and the run still stops exactly at
// maxCredits, never over it.

skipMessage("scale-out run budget suite");

const KEY = "cw_budgetbudgetbudgetbudgetbudgetbudget0";

describe.skipIf(!pgAdminUrl)("run budgets with two worker processes", () => {
  let llm: FakeLlm;
  let db: { url: string; drop: () => Promise<void> };
  let sqlClient: pg.Client;
  let web: ServerProcess | undefined;
  const workers: WorkerProcess[] = [];

  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: db.url,
    API_KEY: KEY,
    INITIAL_CREDITS: "100000",
    OPENAI_BASE_URL: llm.baseUrl,
    AI_MODEL: "openai:fake",
    AI_CONCURRENCY: "32",
    WORKER_CONCURRENCY: "16",
    AI_RPM: "0",
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

  beforeAll(async () => {
    llm = await startFakeLlm({ latencyMs: 50 });
    db = await freshPostgres();
    sqlClient = new pg.Client({ connectionString: db.url });
    await sqlClient.connect();
    web = await startServerProcess(env({ WORKER_IN_PROCESS: "false" }), await pickServerPort());
    workers.push(await startWorker(env()), await startWorker(env()));
  }, 300_000);
  afterAll(async () => {
    for (const w of workers) await w.kill9();
    await web?.kill9();
    await sqlClient?.end();
    await db?.drop();
    await llm?.close();
  });

  it("pauses exactly at maxCredits with concurrency 16 in each of two workers", { timeout: 180_000 }, async () => {
    const base = await api("POST", "/api/v1/bases", {
      baseName: "Budget",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Industry", isAiEnabled: true, inputColumns: ["Company"], columnOptions: { autoRun: "never" } },
      ],
    });
    const baseId = base.body.baseId as string;
    await api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      rows: Array.from({ length: 400 }, (_, i) => ({ cells: { Company: `Company ${i}` } })),
    });
    const run = await api("POST", `/api/v1/bases/${baseId}/run`, { maxCredits: 37 });
    expect(run.body.queued).toBe(400);
    const runId = run.body.runId as string;
    const paused = await waitFor(
      async () => {
        const r = (await api("GET", `/api/v1/runs/${runId}`)).body;
        return r.status === "paused" && r.counts.running === 0 ? r : undefined;
      },
      "the budget pause",
      120_000,
      100,
    );
    expect(paused).toMatchObject({ pausedReason: "budget", creditsSpent: 37, maxCredits: 37 });
    expect(paused.counts.done).toBe(37);
    const [{ n }] = (await sqlClient.query(`SELECT count(*)::int AS n FROM credit_entries WHERE reason = 'cell_run'`))
      .rows;
    expect(n).toBe(37);
  });
});
