// bench:embedded-thread: where the embedded database runs, measured on one data directory of
// 10,000 rows × 6 columns. Three ways to the same PGlite:
//   in process    PGlite and the prepared-statement client on the calling thread (the floor; how
//                 the server ran before: every statement held its event loop)
//   worker        embedded-thread.ts: PGlite in a worker thread, rows crossing as text (the choice)
//   socket        @electric-sql/pglite-socket 0.1.3 in a worker thread, reached by node-postgres
// For each: Get Row's statement, one at a time (p50 / p99) and from 10 concurrent callers
// (statements/s); an insert of 1,000 and of 10,000 rows (Add Rows' floor statement); and the
// longest stall of the calling thread's event loop during the 10,000-row insert. Then whether the
// socket server keeps concurrent connections' statements apart.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { embeddedDir } from "../lib/db/embedded-cluster.ts";
import { PGLITE_OPTIONS } from "../lib/db/embedded-host.ts";
import { startEmbeddedThread } from "../lib/db/embedded-thread.ts";
import { preparedStatementClient } from "../lib/db/pglite-statements.ts";
import { table } from "./support.ts";

const ROWS = 10_000;
const SEQUENTIAL = Number(process.env.BENCH_RUNS ?? 2_000);
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 3_000);

type Query = (sql: string, params: unknown[]) => Promise<unknown[]>;
interface Option {
  name: string;
  open(dir: string): Promise<{ query: Query; close(): Promise<void> }>;
}

const GET_ROW = `SELECT r.id AS row_id, r."values",
   (SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'isAiEnabled', c.is_ai_enabled, 'columnOptions', c.column_options, 'calibration', c.calibration) ORDER BY c.position)
      FROM columns c WHERE c.sheet_id = s.id) AS columns
 FROM bases b JOIN sheets s ON s.base_id = b.id LEFT JOIN rows r ON r.sheet_id = s.id AND r.id = $3
 WHERE b.id = $1 AND b.workspace_id = $2`;
const INSERT = `INSERT INTO rows (id, sheet_id, "values") SELECT id, $1, v FROM unnest($2::text[], $3::jsonb[]) AS t(id, v)`;

const options: Option[] = [
  {
    name: "in process (floor)",
    async open(dir) {
      const lite = new PGlite(embeddedDir(dir), PGLITE_OPTIONS);
      await lite.waitReady;
      const client = preparedStatementClient(lite);
      return { query: async (sql, params) => (await client.query(sql, params)).rows, close: () => lite.close() };
    },
  },
  {
    name: "worker thread",
    async open(dir) {
      const thread = await startEmbeddedThread({ dir: embeddedDir(dir), onPanic: (e) => console.error(e) });
      return {
        query: async (sql, params) => (await thread.statements.query(sql, params)).rows,
        close: async () => void (await thread.close()),
      };
    },
  },
  ...[1, 4].map(
    (max): Option => ({
      name: `pglite-socket, pool of ${max}`,
      async open(dir) {
        const socket = await socketServer(dir);
        const pool = new pg.Pool({ host: "127.0.0.1", port: socket.port, user: "postgres", database: "postgres", max });
        return {
          query: async (sql, params) => (await pool.query(sql, params)).rows,
          close: async () => {
            await pool.end();
            await socket.stop();
          },
        };
      },
    }),
  ),
];

async function socketServer(dir: string): Promise<{ port: number; stop(): Promise<void> }> {
  const worker = new Worker(path.join(import.meta.dirname, "embedded-socket-worker.ts"), {
    workerData: { dir: embeddedDir(dir) },
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    port,
    async stop() {
      const closed = new Promise((r) => worker.once("message", r));
      worker.postMessage("stop");
      await closed;
      await worker.terminate();
    },
  };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function prepare(dir: string) {
  const rt = await createRuntime(loadConfig({ DATA_DIR: dir }));
  try {
    const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
    const names = ["Name", "Company", "City", "Notes", "Score", "Tag"];
    const base = await inTransaction(rt, (w) =>
      createBase(w, workspace.id, { baseName: "Thread", columns: names.map((name) => ({ name })) }, []),
    );
    for (let at = 0; at < ROWS; at += 1_000) {
      const rows = Array.from({ length: 1_000 }, (_, i) => ({
        cells: Object.fromEntries(names.map((n) => [n, `${n} ${at + i} ${"x".repeat(20)}`])),
      }));
      await inTransaction(rt, (w) => addRows(w, workspace.id, base.baseId, { rows }, rt.config.runs));
    }
    const ids = (await rt.db.read<{ id: string }>("SELECT id FROM rows ORDER BY seq", [])).map((r) => r.id);
    const [{ sheet_id: sheetId }] = await rt.db.read<{ sheet_id: string }>("SELECT id AS sheet_id FROM sheets", []);
    const columns = (await rt.db.read<{ id: string }>("SELECT id FROM columns ORDER BY position", [])).map((c) => c.id);
    return { workspaceId: workspace.id, baseId: base.baseId, sheetId, ids, columns };
  } finally {
    await stopRuntime(rt);
  }
}

type Fixture = Awaited<ReturnType<typeof prepare>>;
let inserted = 0;

async function measure(option: Option, dir: string, f: Fixture): Promise<(string | number)[]> {
  const db = await option.open(dir);
  try {
    const getRow = (i: number) => db.query(GET_ROW, [f.baseId, f.workspaceId, f.ids[i % f.ids.length]]);
    for (let i = 0; i < 200; i++) await getRow(i); // warm: plans, caches, the JIT
    const latencies: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const t0 = performance.now();
      const [hit] = (await getRow(i * 7)) as { row_id: string }[];
      latencies.push(performance.now() - t0);
      if (hit.row_id !== f.ids[(i * 7) % f.ids.length]) throw new Error(`${option.name}: Get Row answered another row`);
    }
    let done = 0;
    const until = performance.now() + LOAD_MS;
    await Promise.all(
      Array.from({ length: 10 }, async (_, c) => {
        for (let i = c; performance.now() < until; i += 10) {
          await getRow(i);
          done++;
        }
      }),
    );
    const perSecond = (done / LOAD_MS) * 1000;
    const insert = async (n: number) => {
      const ids = Array.from({ length: n }, () => `rw_bench_${++inserted}`);
      const values = ids.map((id) => JSON.stringify(Object.fromEntries(f.columns.map((c) => [c, `${id} value`]))));
      const t0 = performance.now();
      await db.query(INSERT, [f.sheetId, ids, values]);
      return performance.now() - t0;
    };
    const small = await insert(1_000);
    // The longest gap between ticks of a 1 ms timer: how long the caller's event loop was held.
    let last = performance.now();
    let stalled = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      stalled = Math.max(stalled, now - last);
      last = now;
    }, 1);
    const large = await insert(10_000);
    await new Promise((r) => setTimeout(r, 20)); // the tick that a blocked loop delayed
    clearInterval(ticker);
    return [
      option.name,
      `${ms(quantile(latencies, 0.5))} / ${ms(quantile(latencies, 0.99))}`,
      Math.round(perSecond),
      `${Math.round(small)} ms`,
      `${Math.round(large)} ms`,
      `${Math.round(stalled)} ms`,
    ];
  } finally {
    await db.close();
  }
}

/** Concurrent connections' parameterised statements: does each get its own answer? */
async function socketKeepsStatementsApart(dir: string): Promise<string> {
  const socket = await socketServer(dir);
  const pool = new pg.Pool({ host: "127.0.0.1", port: socket.port, user: "postgres", database: "postgres", max: 4 });
  let wrong = 0;
  let failed = 0;
  try {
    await Promise.all(
      Array.from({ length: 400 }, async (_, i) => {
        try {
          const { rows } = await pool.query(i % 2 ? "SELECT $1::int AS n" : "SELECT $1::text AS t, 2 AS x", [i]);
          if (i % 2 ? rows[0]?.n !== i : rows[0]?.t !== String(i)) wrong++;
        } catch {
          failed++;
        }
      }),
    );
  } finally {
    await pool.end().catch(() => undefined);
    await socket.stop().catch(() => undefined);
  }
  return `400 statements on 4 connections: ${wrong} wrong answers, ${failed} failed`;
}

const dir = mkdtempSync(path.join(tmpdir(), "cw-bench-thread-"));
try {
  console.log(`bench:embedded-thread: ${ROWS.toLocaleString("en")} rows × 6 columns`);
  const fixture = await prepare(dir);
  const results: (string | number)[][] = [
    ["", "Get Row p50 / p99", "Get Row ×10, statements/s", "insert 1,000", "insert 10,000", "caller stalled at most"],
  ];
  for (const option of options) results.push(await measure(option, dir, fixture));
  console.log(table(results));
  const floor = Number(results[1][2]);
  for (const r of results.slice(2))
    console.log(`${r[0]}: ${Math.round((Number(r[2]) / floor) * 100)}% of the floor's statements/s`);
  console.log(`pglite-socket: ${await socketKeepsStatementsApart(dir)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
