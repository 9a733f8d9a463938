// npm run bench:tenants — whether an operation's cost stays flat in the number of bases, on the
// production server, on PGlite and (when 127.0.0.1:5432 answers) PostgreSQL. Each operation is
// timed on a database that holds only what it needs (nothing, or one base of 100,000 rows for the
// operations on a big base), then again once the database also holds 1,000 bases of 4 typed columns
// (text, number, date, checkbox) and 100 rows each, and two more bases of 100,000 rows. Goal: each
// ≤ 1.25× its time on the smaller database.
//   BENCH_TENANTS_BASES (default 1,000) and BENCH_TENANTS_BIG (100,000) shrink it for a quick look.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BenchServer, call, ensureBuild, startServer } from "./rows-server.ts";
import { freshPostgres, postgresAnswers } from "./rows-floor.ts";
import { median, timed } from "./rows-measures.ts";
import { table } from "./support.ts";

const BASES = Number(process.env.BENCH_TENANTS_BASES ?? 1_000);
const BIG = Number(process.env.BENCH_TENANTS_BIG ?? 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const COLUMNS = [
  { name: "Name", type: "short-text", isPrimary: true },
  { name: "Amount", type: "number" },
  { name: "Day", type: "date" },
  { name: "Active", type: "checkbox" },
];
const cellsOf = (i: number) => ({
  Name: `Item ${i}`,
  Amount: String((i * 7919) % 100_000),
  Day: `20${String(i % 25).padStart(2, "0")}-0${(i % 9) + 1}-1${i % 10}`,
  Active: i % 3 === 0 ? "true" : "false",
});
const FIRST_PAGE = {
  filter: {
    and: [
      { column: "Amount", op: "gte", value: 50_000 },
      { column: "Active", op: "eq", value: true },
    ],
  },
  sort: [{ column: "Amount", direction: "desc" }],
  limit: 50,
};

type Base = { baseId: string; rowIds: string[] };
type Timings = Record<string, number>;

async function newBase(s: BenchServer, key: string, name: string): Promise<Base> {
  const { baseId } = await call(s, key, "POST", "/api/v1/bases", { baseName: name, columns: COLUMNS });
  return { baseId, rowIds: [] };
}

async function addRows(s: BenchServer, key: string, base: Base, n: number, from = 0): Promise<void> {
  for (let at = 0; at < n; at += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, n - at) }, (_, i) => ({ cells: cellsOf(from + at + i) }));
    const out = await call(s, key, "POST", `/api/v1/bases/${base.baseId}/add-rows`, { rows });
    if (base.rowIds.length < 100) base.rowIds.push(...out.rows.slice(0, 100).map((r: { id: string }) => r.id));
  }
}

/** The median of `reps` runs of fn, each given its repetition's number. */
async function medianOf(reps: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) times.push(await timed(() => fn(i)));
  return median(times);
}

/** The operations on a small base: creating one, filling it, reading a row, its first page. */
async function smallOps(s: BenchServer, key: string, label: string): Promise<Timings> {
  const made: Base[] = [];
  const create = await medianOf(7, async (i) => made.push(await newBase(s, key, `${label} ${i}`)));
  const add = await medianOf(5, (i) => addRows(s, key, made[i], 1_000));
  const base = made[0];
  const getRow = await medianOf(300, (i) =>
    call(s, key, "GET", `/api/v1/bases/${base.baseId}/rows/${base.rowIds[i % 100]}`),
  );
  const page = await medianOf(30, () => call(s, key, "POST", `/api/v1/bases/${base.baseId}/rows/query`, FIRST_PAGE));
  return {
    "create a base": create,
    "Add Rows 1,000 into a new base": add,
    "Get Row": getRow,
    "first page, filtered and sorted (1,000 rows)": page,
  };
}

/** The operations on a big base: adding to it, reading it, adding a number column to it. */
async function bigOps(s: BenchServer, key: string, big: Base, round: number): Promise<Timings> {
  const add = await medianOf(5, (i) => addRows(s, key, big, 1_000, BIG + round * 10_000 + i * 1_000));
  const getRow = await medianOf(300, (i) =>
    call(s, key, "GET", `/api/v1/bases/${big.baseId}/rows/${big.rowIds[i % 100]}`),
  );
  const page = await medianOf(30, () => call(s, key, "POST", `/api/v1/bases/${big.baseId}/rows/query`, FIRST_PAGE));
  const column = await medianOf(3, (i) =>
    call(s, key, "POST", `/api/v1/bases/${big.baseId}/columns`, { name: `Score ${round}-${i}`, type: "number" }),
  );
  return {
    "Add Rows 1,000 into a big base": add,
    "Get Row of a big base": getRow,
    [`first page, filtered and sorted (${BIG.toLocaleString("en")} rows)`]: page,
    "add a number column to a big base": column,
  };
}

/** Fills the database with `BASES` small bases of 100 rows, four requests at a time. */
async function manyBases(s: BenchServer, key: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < BASES; i = next++) {
      const base = await newBase(s, key, `Tenant ${i}`);
      await addRows(s, key, base, 100);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

// The column indexes of a big base are built in the background once it passes 20,000 rows.
const settle = () => new Promise((r) => setTimeout(r, 15_000));

async function benchStore(store: "pglite" | "postgres"): Promise<string[][]> {
  const key = `cw_${randomBytes(24).toString("hex")}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-tenants-"));
  const pgdb = store === "postgres" ? await freshPostgres(PG_URL) : undefined;
  const server = await startServer({ DATA_DIR: dataDir, API_KEY: key, ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) });
  try {
    console.log(`\n== ${store}: an empty database`);
    const emptySmall = await smallOps(server, key, "Empty");
    console.log(`   one base of ${BIG.toLocaleString("en")} rows`);
    const big = await newBase(server, key, "Big 0");
    await addRows(server, key, big, BIG);
    await settle();
    const emptyBig = await bigOps(server, key, big, 0);

    let t0 = performance.now();
    console.log(`   ${BASES.toLocaleString("en")} bases of 100 rows, and two more of ${BIG.toLocaleString("en")}`);
    await manyBases(server, key);
    for (const n of [1, 2]) await addRows(server, key, await newBase(server, key, `Big ${n}`), BIG);
    console.log(`   (filled in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    await settle();
    t0 = performance.now();
    const fullSmall = await smallOps(server, key, "Full");
    const fullBig = await bigOps(server, key, big, 1);
    console.log(`   (measured in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    const before = { ...emptySmall, ...emptyBig };
    const after = { ...fullSmall, ...fullBig };
    return Object.keys(before).map((op) => {
      const ratio = after[op] / before[op];
      return [
        store,
        op,
        `${before[op].toFixed(1)} ms`,
        `${after[op].toFixed(1)} ms`,
        `${ratio.toFixed(2)}×`,
        ratio <= 1.25 ? "ok" : "OVER",
      ];
    });
  } finally {
    await server.stop();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log("== building the app (once)");
ensureBuild();
const figures = [["store", "operation", "small database", "many bases", "ratio", "≤ 1.25×"]];
figures.push(...(await benchStore("pglite")));
if (process.env.BENCH_SKIP_PG !== "1" && (await postgresAnswers(PG_URL)))
  figures.push(...(await benchStore("postgres")));
else console.log("\n== PostgreSQL skipped");
console.log(`\n${table(figures)}`);
