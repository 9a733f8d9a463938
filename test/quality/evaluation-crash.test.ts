import { afterAll, beforeAll, expect, it } from "vitest";
import type { FakeLlm } from "../support/fake-llm.ts";
import { type CrashScene, openCrashScene } from "../support/crash-scene.ts";
import { keyedApi, pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { openDatabase } from "../../lib/db/database.ts";

// Kill -9 the real server while an evaluation runs, start it again: every row is evaluated, each
// charged exactly once, and the crash re-asks at most one row per evaluation slot.

const KEY = "cw_evalcrashevalcrashevalcrashevalcrash0";
const SLOTS = 4;
const ROWS = 60;
let scene: CrashScene;
let llm: FakeLlm;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  scene = await openCrashScene(60, "eval-crash");
  ({ llm, dataDir } = scene);
});
afterAll(() => scene.close(server));

const env = () => scene.env(KEY, SLOTS);

const api = keyedApi(() => server, KEY);

it("resumes an evaluation after kill -9, charging each row exactly once", { timeout: 300_000 }, async () => {
  const port = await pickServerPort();
  server = await startServerProcess(env(), port);
  const base = (
    await api("POST", "/api/v1/bases", {
      baseName: "Eval crash",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Sector", isAiEnabled: true, inputColumns: ["Company"] },
      ],
    })
  ).body;
  const rows = (
    await api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
      rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Company: `Company ${i}` } })),
    })
  ).body.rows as { id: string }[];
  const columnId = base.sheetColumns.find((c: { name: string }) => c.name === "Sector").id;
  await waitFor(
    async () => {
      const all = (await api("GET", `/api/v1/bases/${base.baseId}/rows?expand=true`)).body.rows as any[];
      return all.every((r) => r.cells.Sector.status === "done") || undefined;
    },
    "the column to fill",
    120_000,
    200,
  );
  const review = await api("POST", `/api/v1/bases/${base.baseId}/review`, {
    cells: rows.map((r) => ({ rowId: r.id, columnId, action: "accept" })),
  });
  expect(review.status).toBe(200);

  const asked = llm.totalRequests;
  const started = await api("POST", `/api/v1/bases/${base.baseId}/columns/${columnId}/evaluate`, {
    limit: ROWS,
    instructions: "Try again.",
  });
  expect(started.status).toBe(202);
  const evaluation = async () => (await api("GET", `/api/v1/evaluations/${started.body.id}`)).body;
  await waitFor(
    async () => ((await evaluation()).counts.done >= 15 ? true : undefined),
    "15 rows evaluated",
    120_000,
    100,
  );
  await server.kill9();

  server = await startServerProcess(env(), port);
  const final = await waitFor(
    async () => {
      const e = await evaluation();
      return e.status === "done" ? e : undefined;
    },
    "the evaluation to finish after the restart",
    120_000,
    250,
  );
  expect(final.counts).toMatchObject({ rows: ROWS, done: ROWS, error: 0 });
  expect(final.creditsSpent).toBe(ROWS);
  const askedAgain = llm.totalRequests - asked - ROWS;
  console.log(`kill -9 during an evaluation: ${askedAgain} row(s) asked again (${SLOTS} slots)`);
  expect(askedAgain).toBeGreaterThanOrEqual(0);
  expect(askedAgain).toBeLessThanOrEqual(SLOTS);
  await server.stop();
  server = undefined;

  const db = await waitFor(
    () => openDatabase({ kind: "pglite", dataDir }).catch(() => undefined),
    "the server to release the data directory",
    30_000,
    250,
  );
  try {
    const entries = await db.prisma.creditEntry.findMany({ where: { reason: "evaluation" } });
    expect(entries).toHaveLength(ROWS);
    expect(new Set(entries.map((e) => e.rowId)).size).toBe(ROWS);
  } finally {
    await db.close();
  }
});
