// npm run bench:query — 100,000 typed rows on PGlite (BENCH_DATABASE_URL for PostgreSQL). Times the
// first page of Query Rows filtered, sorted and searched, beside the floor measured in the same run:
// the first page with no options. Goal: the filtered first page under 150 ms at the median.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../lib/config.ts";
import { createRuntime, stopRuntime } from "../lib/runtime.ts";
import { createWorkspace } from "../lib/workspaces.ts";
import { inTransaction } from "../lib/db/work.ts";
import { createBase } from "../lib/domain/bases.ts";
import { addRows } from "../lib/domain/rows/write.ts";
import { queryRows } from "../lib/domain/rows/query.ts";
import type { RowsQueryInput } from "../lib/domain/query/request.ts";
import { table } from "./support.ts";
import { freshPostgres } from "./rows-floor.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const GOAL_MS = 150;
// Company names from 40 × 40 syllable pairs: a name search matches a few hundred rows, as a real one would.
const SYLLABLES = [
  "ac",
  "me",
  "glo",
  "bex",
  "ini",
  "tech",
  "um",
  "brel",
  "la",
  "hoo",
  "li",
  "stark",
  "way",
  "ne",
  "won",
  "ka",
  "ty",
  "rell",
  "cy",
  "ber",
  "dyne",
  "soy",
  "lent",
  "van",
  "de",
  "lay",
  "pi",
  "ed",
  "per",
  "cor",
  "zen",
  "tri",
  "mo",
  "lux",
  "qua",
  "dra",
  "vel",
  "ox",
  "nu",
  "ra",
];
const WORDS = SYLLABLES.flatMap((a) => SYLLABLES.map((b) => a + b));
const STAGES = ["Seed", "Series A", "Series B", "Series C"];

const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-query-"));
// BENCH_DATABASE_URL (an admin URL): a fresh PostgreSQL database, dropped afterwards.
const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
const rt = await createRuntime(
  loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url }),
  process.env.BENCH_MEMORY === "1" ? { target: { kind: "pglite-memory" } } : {},
);
const { workspace } = await createWorkspace(rt.db.prisma, `bench-${Date.now()}`);
const base = await inTransaction(rt, (w) =>
  createBase(
    w,
    workspace.id,
    {
      baseName: "Bench",
      columns: [
        { name: "Company", isPrimary: true },
        { name: "Employees", type: "number" },
        { name: "Founded", type: "date" },
        { name: "Stage", type: "select", columnOptions: { options: STAGES } },
        { name: "Summary", type: "long-text" },
      ],
    },
    [],
  ),
);

// Deterministic data (mulberry32), so every run measures the same rows.
let seed = 42;
function rand(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n);
}
const t0 = Date.now();
for (let i = 0; i < ROWS; i += 10_000) {
  const rows = Array.from({ length: Math.min(10_000, ROWS - i) }, (_, j) => ({
    cells: {
      Company: `${WORDS[rand(WORDS.length)]} ${WORDS[rand(WORDS.length)]} ${i + j}`,
      Employees: rand(5_000),
      Founded: `${1980 + rand(44)}-${String(1 + rand(12)).padStart(2, "0")}-${String(1 + rand(28)).padStart(2, "0")}`,
      Stage: STAGES[rand(STAGES.length)],
      Summary: `${WORDS[rand(WORDS.length)]} raised a round; ${rand(10) === 0 ? "series b in talks" : "profitable"} (${i + j})`,
    },
  }));
  await inTransaction(rt, (w) => addRows(w, workspace.id, base.baseId, { rows }, rt.config.runs));
}
await rt.db.prisma.$executeRawUnsafe(`ANALYZE rows`);
const loadSecs = ((Date.now() - t0) / 1000).toFixed(1);

async function median(q: RowsQueryInput): Promise<{ ms: number; rows: number; total?: number }> {
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof queryRows>> | undefined;
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    last = await queryRows(rt.db.prisma, workspace.id, base.baseId, q);
    if (i >= 3) times.push(performance.now() - start); // the first runs warm the caches
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], rows: last!.rows.length, total: last!.total };
}

const floor = await median({ limit: 100 });
const filtered = await median({
  filter: {
    and: [
      { column: "Employees", op: "gte", value: 50 },
      {
        or: [
          { column: "Summary", op: "contains", value: "series b" },
          { column: "Stage", op: "eq", value: "Seed" },
        ],
      },
    ],
  },
  sort: [{ column: "Employees", direction: "desc" }],
  search: "wonka",
  limit: 100,
});
// A search most rows match: the trigram index cannot narrow it, so this is the slow end.
const broad = await median({
  filter: { column: "Employees", op: "gte", value: 50 },
  sort: [{ column: "Employees", direction: "desc" }],
  search: "e",
  limit: 100,
});
const counted = await median({
  search: "wonka",
  filter: { column: "Employees", op: "gte", value: 50 },
  sort: [{ column: "Founded" }],
  limit: 100,
  count: true,
});
const sortedOnly = await median({
  sort: [{ column: "Employees", direction: "desc" }, { column: "Company" }],
  limit: 100,
});
// Ascending by a number, and a date range: what the column's expression index serves.
const indexedSort = await median({ sort: [{ column: "Employees" }], limit: 100 });
const dateRange = await median({
  filter: { column: "Founded", op: "gte", value: "2023-06-01" },
  sort: [{ column: "Founded" }],
  limit: 100,
  count: true,
});

console.log(
  `\nbench:query (${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, ${ROWS.toLocaleString("en-US")} rows loaded in ${loadSecs} s, median of ${RUNS})\n`,
);
console.log(
  table([
    ["query", "median", "rows", "goal"],
    ["first page, no options (floor)", `${floor.ms.toFixed(1)} ms`, floor.rows, "-"],
    ["filtered + sorted + searched first page", `${filtered.ms.toFixed(1)} ms`, filtered.rows, `< ${GOAL_MS} ms`],
    ["same kind, with count", `${counted.ms.toFixed(1)} ms`, `${counted.rows} of ${counted.total}`, "-"],
    ["filtered + sorted, search most rows match", `${broad.ms.toFixed(1)} ms`, broad.rows, "-"],
    ["sorted by two keys, unfiltered", `${sortedOnly.ms.toFixed(1)} ms`, sortedOnly.rows, "-"],
    ["sorted by a number ascending (index)", `${indexedSort.ms.toFixed(1)} ms`, indexedSort.rows, "-"],
    [
      "date range, sorted by it (index), with count",
      `${dateRange.ms.toFixed(1)} ms`,
      `${dateRange.rows} of ${dateRange.total}`,
      "-",
    ],
  ]),
);
await stopRuntime(rt);
await pgdb?.drop();
rmSync(dataDir, { recursive: true, force: true });
if (filtered.ms >= GOAL_MS) process.exitCode = 1;
