import { afterAll, beforeAll, expect, it } from "vitest";
import type { FakeLlm } from "../support/fake-llm.ts";
import { type CrashScene, openCrashScene } from "../support/crash-scene.ts";
import { keyedApi, pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { openDatabase } from "../../lib/db/database.ts";

// Cancel a run, then kill -9 the real server while the cancelled run's answers are still in
// flight. After a restart, the cancelled cells stay cancelled, nothing of the run runs again, and
// no cell is charged twice. Runs on the embedded database.

const KEY = "cw_cancelcrashcancelcrashcancelcrash00";
let scene: CrashScene;
let llm: FakeLlm;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  scene = await openCrashScene(400, "cancel-crash");
  ({ llm, dataDir } = scene);
});
afterAll(() => scene.close(server));

const env = () => scene.env(KEY, 8);

const api = keyedApi(() => server, KEY);

it("a run cancelled just before kill -9 stays cancelled after the restart, and nothing is charged twice", {
  timeout: 300_000,
}, async () => {
  const port = await pickServerPort();
  server = await startServerProcess(env(), port);
  const base = await api("POST", "/api/v1/bases", {
    baseName: "Cancel crash",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Industry", isAiEnabled: true, inputColumns: ["Company"] },
    ],
  });
  const baseId = base.body.baseId as string;
  const add = await api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    rows: Array.from({ length: 100 }, (_, i) => ({ cells: { Company: `Company ${i}` } })),
  });
  const runId = add.body.runId as string;
  await waitFor(
    async () => (await api("GET", `/api/v1/runs/${runId}`)).body.counts.done >= 10,
    "10 cells done",
    60_000,
    100,
  );
  const cancelled = await api("POST", `/api/v1/runs/${runId}/cancel`);
  expect(cancelled.body.status).toBe("cancelled");
  const { done, cancelled: cancelledCount } = cancelled.body.counts;
  expect(cancelledCount).toBeGreaterThan(0);
  await server.kill9();
  const requestsAtKill = llm.totalRequests;

  server = await startServerProcess(env(), port);
  const after = await api("GET", `/api/v1/runs/${runId}`);
  expect(after.body).toMatchObject({
    status: "cancelled",
    counts: { done, cancelled: cancelledCount, pending: 0, running: 0 },
  });
  const rows = (await api("GET", `/api/v1/bases/${baseId}/rows?expand=true`)).body.rows as any[];
  expect(rows).toHaveLength(100);
  expect(rows.filter((r) => r.cells.Industry.status === "cancelled")).toHaveLength(cancelledCount);
  expect(rows.some((r) => r.processing)).toBe(false);
  // The restarted server found nothing of the run to do.
  expect(llm.totalRequests).toBe(requestsAtKill);
  await server.stop();
  server = undefined;

  const db = await waitFor(
    () => openDatabase({ kind: "pglite", dataDir }).catch(() => undefined),
    "the server to release the data directory",
    30_000,
    250,
  );
  try {
    const entries = await db.prisma.creditEntry.findMany({ where: { reason: "cell_run" } });
    expect(entries).toHaveLength(done);
    expect(new Set(entries.map((e) => `${e.rowId}:${e.columnId}`)).size).toBe(done);
    const run = await db.prisma.run.findUnique({ where: { id: runId } });
    expect(run?.creditsSpent).toBe(done);
  } finally {
    await db.close();
  }
});
