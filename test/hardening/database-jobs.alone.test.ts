import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { expectAnswersAtOnce, keyedFetch, newGuardFigures, printGuardFigures } from "./thread-guard.ts";

// The background work of the server (npm start, on PGlite) holds its thread no more than a request
// does: while a 10,000-row CSV import goes through the import API, and while a run fills 10,000 AI
// cells against a model server over real HTTP, /api/health and a 401 answer at once (the guard of
// thread-guard.ts, as database-thread.alone.test.ts does for Add Rows and an export). Both jobs run
// in the server's process, as they do by default on the embedded database: the CSV is parsed and
// cast there, and the engine claims, calls and settles each cell there.

const KEY = "cw_databaseJobsTestKey0000000000000000000001";
const ROWS = 10_000;
const COLUMNS = ["Name", "Company", "City", "Notes", "Score", "Tag"];
let server: ServerProcess;
let llm: FakeLlm;
let dataDir: string;
let importBaseId: string;
let runBaseId: string;

const api = keyedFetch(() => server, KEY);

async function json<T>(res: Promise<Response>, status: number): Promise<T> {
  const answer = await res;
  const text = await answer.text();
  expect(answer.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function createBase(baseName: string, columns: unknown[]): Promise<string> {
  return (await json<{ baseId: string }>(api("POST", "/api/v1/bases", { baseName, columns }), 201)).baseId;
}

const csvOf = (n: number, tag: string) =>
  [COLUMNS.join(","), ...Array.from({ length: n }, (_, i) => COLUMNS.map((c) => `${tag} ${c} ${i} xxxxxxxx`).join(","))]
    .join("\n")
    .concat("\n");

interface ImportView {
  id: string;
  status: string;
  rowsCreated: number;
  errors?: unknown[];
}

/** Uploads a CSV to the import API and polls the import until it ends; its final state. */
async function importCsv(n: number, tag: string): Promise<ImportView> {
  const started = await json<ImportView>(
    api("POST", `/api/v1/bases/${importBaseId}/imports`, csvOf(n, tag), "text/csv"),
    202,
  );
  return waitFor(
    async () => {
      const job = await json<ImportView>(api("GET", `/api/v1/bases/${importBaseId}/imports/${started.id}`), 200);
      return job.status === "done" || job.status === "failed" ? job : undefined;
    },
    `import ${started.id} to end`,
    240_000,
    250,
  );
}

interface RunView {
  status: string;
  counts: Record<string, number>;
}

/** Runs the AI cells a request names and polls the run until none of its cells is open. */
async function runAi(baseId: string, body: Record<string, unknown>): Promise<{ queued: number; run: RunView }> {
  const started = await json<{ runId: string; queued: number }>(api("POST", `/api/v1/bases/${baseId}/run`, body), 202);
  const run = await waitFor(
    async () => {
      const view = await json<RunView>(api("GET", `/api/v1/runs/${started.runId}`), 200);
      if (view.status === "paused") throw new Error(`the run paused: ${JSON.stringify(view)}`);
      return view.status === "running" ? undefined : view;
    },
    `run ${started.runId} to end`,
    // 10,000 cells took 261 s on a 2-core machine at a load average of 14.
    600_000,
    500,
  );
  return { queued: started.queued, run };
}

const aiBase = (baseName: string) =>
  createBase(baseName, [
    { name: "Company", isPrimary: true },
    // Filled by the run the case starts, not by Add Rows.
    { name: "Summary", isAiEnabled: true, inputColumns: ["Company"], columnOptions: { autoRun: "never" } },
  ]);

async function addCompanies(baseId: string, n: number): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => ({ cells: { Company: `Company ${i}` } }));
  await json(api("POST", `/api/v1/bases/${baseId}/add-rows`, { rows }), 200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-dbjobs-"));
  // A model that answers in 10 ms: the run is bound by the server's own work per cell.
  llm = await startFakeLlm({ latencyMs: 10, maxRecorded: 100 });
  const env = {
    DATA_DIR: dataDir,
    API_KEY: KEY,
    OPENAI_BASE_URL: llm.baseUrl,
    AI_MODEL: "openai:fake",
    AI_CONCURRENCY: "32",
    AI_RPM: "0",
  };
  server = await startServerProcess(env, await pickServerPort());
  importBaseId = await createBase(
    "Import",
    COLUMNS.map((name) => ({ name })),
  );
  runBaseId = await aiBase("Run");
  await addCompanies(runBaseId, ROWS);
  // Warm the import, the engine and the routes, so that start-up costs are not counted.
  expect((await importCsv(100, "warm")).status).toBe("done");
  const warm = await aiBase("Warm");
  await addCompanies(warm, 20);
  expect((await runAi(warm, {})).run.counts.done).toBe(20);
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await llm?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const figures = newGuardFigures();

describe("the server's background work never holds its thread", () => {
  const cases: [string, () => Promise<unknown>][] = [
    [
      "a 10,000-row CSV import",
      async () => {
        const job = await importCsv(ROWS, "load");
        expect(job.status, JSON.stringify(job)).toBe("done");
        expect(job.rowsCreated).toBe(ROWS);
      },
    ],
    [
      "a run of 10,000 AI cells",
      async () => {
        const { queued, run } = await runAi(runBaseId, {});
        expect(queued).toBe(ROWS);
        expect(run.status, JSON.stringify(run)).toBe("done");
        expect(run.counts.done, JSON.stringify(run)).toBe(ROWS);
      },
    ],
  ];

  it.each(cases)("/api/health and a 401 answer at once during %s", { timeout: 900_000, retry: 1 }, (name, work) =>
    expectAnswersAtOnce(server, name, work, figures),
  );

  afterAll(() => printGuardFigures(figures));
});
