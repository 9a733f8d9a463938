import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../../lib/db/database.ts";
import { DataDirBusyError } from "../../lib/db/data-dir-lock.ts";
import { pickServerPort, startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { waitFor } from "../support/wait.ts";
import { expectAnswersAtOnce, keyedFetch, newGuardFigures, printGuardFigures, sleep } from "./thread-guard.ts";

// The embedded database runs in a thread of its own, so the thread that serves HTTP never waits on
// a statement another request started. While 10,000 rows go in through Add Rows and while they are
// exported, the real server (npm start, on PGlite) answers /api/health and a 401 at once (the
// guard of thread-guard.ts: before, each of these held every answer for seconds). The same guard
// during an import and an AI run is database-jobs.alone.test.ts. Then SIGTERM, with statements
// queued for seconds: the server exits within 10 s, and its data directory opens again with every
// row committed before.

const KEY = "cw_databaseThreadTestKey000000000000000000001";
const COLUMNS = ["Name", "Company", "City", "Notes", "Score", "Tag"];
let server: ServerProcess;
let dataDir: string;
let baseId: string;

const api = keyedFetch(() => server, KEY);

const rowsOf = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({
    cells: Object.fromEntries(COLUMNS.map((c) => [c, `${tag} ${c} ${i} ${"x".repeat(16)}`])),
  }));

async function addRows(n: number, tag: string): Promise<Response> {
  const res = await api("POST", `/api/v1/bases/${baseId}/add-rows`, { rows: rowsOf(n, tag) });
  if (res.status !== 200) throw new Error(`Add Rows → ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return res;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-dbthread-"));
  server = await startServerProcess({ DATA_DIR: dataDir, API_KEY: KEY }, await pickServerPort());
  const res = await api("POST", "/api/v1/bases", { baseName: "Thread", columns: COLUMNS.map((name) => ({ name })) });
  const base = (await res.json()) as { baseId: string };
  expect(res.status, JSON.stringify(base)).toBe(201);
  baseId = base.baseId;
  // Warm the routes and the statements, so that start-up costs are not counted.
  await addRows(1_000, "warm");
  await (await api("GET", `/api/v1/bases/${baseId}/export?format=csv`)).arrayBuffer();
}, 300_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const figures = newGuardFigures();

describe("the database's work never holds the server's thread", () => {
  const cases: [string, () => Promise<unknown>][] = [
    ["a 10,000-row Add Rows", () => addRows(10_000, "load")],
    [
      "an export of the 11,000 rows as CSV",
      async () => {
        const res = await api("GET", `/api/v1/bases/${baseId}/export?format=csv`);
        const text = await res.text();
        expect(res.status).toBe(200);
        // A header, then every row (more after a retried Add Rows).
        expect(text.split("\n").filter(Boolean).length).toBeGreaterThanOrEqual(11_001);
      },
    ],
  ];

  it.each(cases)("/api/health and a 401 answer at once during %s", { timeout: 180_000, retry: 1 }, (name, work) =>
    expectAnswersAtOnce(server, name, work, figures),
  );

  afterAll(() => printGuardFigures(figures));
});

describe("SIGTERM while the database is busy", () => {
  it("stops the server within 10 s, and the data directory opens again with the rows committed before", {
    timeout: 180_000,
  }, async () => {
    // Six Add Rows of 10,000 rows queue seconds of statements; the signal comes while the first runs.
    const burst = Array.from({ length: 6 }, (_, i) => addRows(10_000, `burst ${i}`).catch((e: Error) => e));
    await sleep(1_500);
    const t0 = performance.now();
    await server.stop();
    // npm and the port can be gone a moment before the server's process, which holds the data
    // directory until its database has closed: the server has stopped once it lets go of it.
    const db = await waitFor(
      () =>
        openDatabase({ kind: "pglite", dataDir }).catch((e: unknown) => {
          if (e instanceof DataDirBusyError) return undefined;
          throw e;
        }),
      "the server to let go of its data directory",
      20_000,
      50,
    );
    const stopMs = performance.now() - t0;
    await Promise.all(burst);
    console.log(`SIGTERM to exit: ${Math.round(stopMs)} ms`);
    // Each Add Rows is one transaction: all of its rows or none, after recovery from the WAL.
    try {
      const tags = await db.read<{ tag: string; n: number }>(
        `SELECT split_part(r."values"->>c.id, ' Name ', 1) AS tag, count(*)::int AS n
           FROM rows r JOIN columns c ON c.sheet_id = r.sheet_id AND c.name = 'Name'
          GROUP BY 1 ORDER BY 1`,
        [],
      );
      const counts = Object.fromEntries(tags.map((t) => [t.tag, t.n]));
      expect(counts.warm).toBe(1_000);
      expect(counts.load % 10_000, "whole Add Rows of the cases above (one more if retried)").toBe(0);
      for (const [tag, n] of Object.entries(counts)) if (tag.startsWith("burst")) expect(n, tag).toBe(10_000);
    } finally {
      await db.close();
    }
    expect(stopMs, server.output().slice(-2_000)).toBeLessThan(10_000);
  });
});
