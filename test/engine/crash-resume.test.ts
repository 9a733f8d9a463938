import { afterAll, beforeAll, expect, it } from "vitest";
import type { FakeLlm } from "../support/fake-llm.ts";
import { type CrashScene, openCrashScene } from "../support/crash-scene.ts";
import { keyedApi, pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { openDatabase } from "../../lib/db/database.ts";

// Kill -9 the real server while 200 AI cells run, start it again, and check that every cell
// completes and none is charged twice, and that the crash cost at most one model call per worker
// slot: a slot is held until its answer is stored, so answers never pile up unsaved. Runs on the
// embedded database.

const KEY = "cw_crashcrashcrashcrashcrashcrashcrash00";
const SLOTS = 8;
const LATENCY_MS = 50;
let scene: CrashScene;
let llm: FakeLlm;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  // Answers come fast, so that storing them, not asking for them, is what the engine waits on.
  scene = await openCrashScene(LATENCY_MS, "crash");
  ({ llm, dataDir } = scene);
});
afterAll(() => scene.close(server));

const env = () => scene.env(KEY, SLOTS);

const api = keyedApi(() => server, KEY);

async function countStatuses(baseId: string) {
  const rows = (await api("GET", `/api/v1/bases/${baseId}/rows?expand=true`)).body.rows as any[];
  const counts: Record<string, number> = {};
  for (const r of rows)
    for (const name of ["First", "Second"]) counts[r.cells[name].status] = (counts[r.cells[name].status] ?? 0) + 1;
  return counts;
}

it("resumes every pending cell after kill -9, charging each exactly once", { timeout: 400_000 }, async () => {
  const port = await pickServerPort();
  server = await startServerProcess(env(), port);
  const base = await api("POST", "/api/v1/bases", {
    baseName: "Crash",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "First", isAiEnabled: true, inputColumns: ["Company"] },
      { name: "Second", isAiEnabled: true, inputColumns: ["First"] },
    ],
  });
  expect(base.status).toBe(201);
  const baseId = base.body.baseId as string;
  const add = await api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    rows: Array.from({ length: 100 }, (_, i) => ({ cells: { Company: `Company ${i}` } })),
  });
  expect(add.status).toBe(200);

  await waitFor(async () => ((await countStatuses(baseId)).done ?? 0) >= 40, "40 cells done", 120_000, 200);
  await server.kill9();
  const doneAtKill = llm.totalRequests;
  expect(doneAtKill).toBeLessThan(200);

  server = await startServerProcess(env(), port);
  const final = await waitFor(
    async () => {
      const c = await countStatuses(baseId);
      return (c.done ?? 0) === 200 ? c : undefined;
    },
    "all 200 cells done after the restart",
    180_000,
    250,
  );
  expect(final).toEqual({ done: 200 });
  // Every request past one per cell was a cell asked again: at most the calls in flight at the kill.
  const askedAgain = llm.totalRequests - 200;
  console.log(`kill -9 during the run: ${askedAgain} cell(s) asked again (${SLOTS} slots)`);
  expect(askedAgain).toBeGreaterThanOrEqual(0);
  expect(askedAgain).toBeLessThanOrEqual(SLOTS);
  const rows = (await api("GET", `/api/v1/bases/${baseId}/rows`)).body.rows as any[];
  // The fake LLM echoes a cell's inputs, so the second column's value embeds the first's.
  expect(rows).toHaveLength(100);
  for (const r of rows) expect(r.cells.Second).toContain(JSON.stringify(r.cells.First).slice(1, -1));
  await server.stop();
  server = undefined;

  // The server finishes its graceful shutdown (and releases the data directory) after its wrapper exits.
  const db = await waitFor(
    () => openDatabase({ kind: "pglite", dataDir }).catch(() => undefined),
    "the server to release the data directory",
    30_000,
    250,
  );
  try {
    const entries = await db.prisma.creditEntry.findMany({ where: { reason: "cell_run" } });
    const refunds = await db.prisma.creditEntry.count({ where: { reason: { startsWith: "refund:" } } });
    expect(entries).toHaveLength(200);
    expect(new Set(entries.map((e) => `${e.rowId}:${e.columnId}`)).size).toBe(200);
    expect(refunds).toBe(0);
  } finally {
    await db.close();
  }
});
