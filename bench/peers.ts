// npm run bench:peers — reads against NocoDB and Directus (installed outside the repository on
// first use, both on SQLite), beside Cellwright's production server on PGlite and (when
// 127.0.0.1:5432 answers) PostgreSQL, in interleaved rounds so that the machine's load hits all alike:
//   Get Row by id under load (autocannon, 10 connections, BENCH_LOAD_SECONDS per system) → req/s, p99
//   every row of a table of 10,000 and of 100,000 rows (PEERS_SMALL, PEERS_BIG) → median wall time
// Each figure is printed beside the best peer's, with Cellwright ÷ the best peer (≥ 1.0× is ahead).
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { ensureBuild } from "./rows-server.ts";
import { postgresAnswers } from "./rows-floor.ts";
import { LOAD_SECONDS, median, timed } from "./rows-measures.ts";
import { startCellwright, type Target } from "./peers-targets.ts";
import { startDirectus, startNocodb } from "./peers-systems.ts";
import { table } from "./support.ts";

const SIZES = { small: Number(process.env.PEERS_SMALL ?? 10_000), big: Number(process.env.PEERS_BIG ?? 100_000) };
const RUNS = { small: Number(process.env.PEERS_RUNS_SMALL ?? 5), big: Number(process.env.PEERS_RUNS_BIG ?? 3) };
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const rotate = <T>(xs: T[], by: number) => xs.map((_, i) => xs[(i + by) % xs.length]);

/** Get Row on every target in alternating slices; requests/s over all slices, p99 the worst slice's. */
async function getOneRow(targets: Target[]) {
  const slices = Math.max(1, Math.round(LOAD_SECONDS / 2));
  const seconds = LOAD_SECONDS / slices;
  const acc = new Map(targets.map((t) => [t, { requests: 0, p50: [] as number[], p99: [] as number[] }]));
  for (let s = 0; s < slices; s++) {
    for (const t of rotate(targets, s)) {
      const r = await autocannon({ ...t.getOne, connections: 10, duration: seconds });
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`${t.name}: ${r.non2xx} of ${r.requests.total} answers not 2xx, ${r.errors} errors`);
      const a = acc.get(t)!;
      a.requests += r.requests.total;
      a.p50.push(r.latency.p50);
      a.p99.push(r.latency.p99);
    }
  }
  return new Map(
    targets.map((t) => {
      const a = acc.get(t)!;
      return [t, { rps: a.requests / LOAD_SECONDS, p50: median(a.p50), p99: Math.max(...a.p99) }];
    }),
  );
}

/** Every row of the small or big table, RUNS times per target in rotating order; the median. */
async function listing(targets: Target[], which: "small" | "big") {
  const times = new Map(targets.map((t) => [t, [] as number[]]));
  for (const t of targets) {
    const n = await t.listAll(which); // a warm-up read, and the check that every row comes back
    if (n !== SIZES[which]) throw new Error(`${t.name} listed ${n} rows, not ${SIZES[which]}`);
  }
  for (let run = 0; run < RUNS[which]; run++)
    for (const t of rotate(targets, run)) times.get(t)!.push(await timed(() => t.listAll(which)));
  return new Map(targets.map((t) => [t, median(times.get(t)!)]));
}

const started = performance.now();
const loads: string[] = [loadAverage()];
ensureBuild();
const peers: Target[] = [];
const ours: Target[] = [];
const skipped: string[] = [];
try {
  for (const [name, start] of [
    ["NocoDB", startNocodb],
    ["Directus", startDirectus],
  ] as const) {
    console.log(`== ${name}: installing (once), starting on SQLite, seeding ${SIZES.small} and ${SIZES.big} rows`);
    try {
      const t0 = performance.now();
      peers.push(await start(SIZES));
      console.log(`   ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    } catch (e) {
      console.error(`   ${name} could not be measured: ${(e as Error).message}`);
      skipped.push(name);
    }
  }
  if (peers.length === 0) throw new Error("no peer could be started");
  console.log("== Cellwright on PGlite: starting, seeding");
  ours.push(await startCellwright("pglite", SIZES, PG_URL));
  if (process.env.BENCH_SKIP_PG === "1") console.log("== PostgreSQL skipped (BENCH_SKIP_PG=1)");
  else if (await postgresAnswers(PG_URL)) {
    console.log("== Cellwright on PostgreSQL: starting, seeding");
    ours.push(await startCellwright("postgres", SIZES, PG_URL));
  } else console.log(`== PostgreSQL skipped: nothing answers at ${new URL(PG_URL).host}`);

  const all = [...peers, ...ours];
  loads.push(loadAverage());
  console.log(`== Get Row, ${LOAD_SECONDS} s per system in alternating slices`);
  const one = await getOneRow(all);
  loads.push(loadAverage());
  console.log(`== listing ${SIZES.small} rows ×${RUNS.small}`);
  const small = await listing(all, "small");
  loads.push(loadAverage());
  console.log(`== listing ${SIZES.big} rows ×${RUNS.big}`);
  const big = await listing(all, "big");
  loads.push(loadAverage());

  const best = <T>(m: Map<Target, T>, better: (a: T, b: T) => boolean) =>
    peers.reduce((b, p) => (better(m.get(p)!, m.get(b)!) ? p : b));
  const bestRps = best(one, (a, b) => a.rps > b.rps);
  const bestSmall = best(small, (a, b) => a < b);
  const bestBig = best(big, (a, b) => a < b);
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const rows: string[][] = [
    ["measure", ...all.map((t) => t.name), "best peer", ...ours.map((t) => `${t.name} ÷ best peer`)],
    [
      "Get Row, requests/s",
      ...all.map((t) => one.get(t)!.rps.toFixed(0)),
      bestRps.name,
      ...ours.map((t) => `${(one.get(t)!.rps / one.get(bestRps)!.rps).toFixed(2)}×`),
    ],
    [
      "Get Row, p50 / p99",
      ...all.map((t) => `${one.get(t)!.p50} / ${one.get(t)!.p99} ms`),
      bestRps.name,
      ...ours.map((t) => (one.get(t)!.p99 <= one.get(bestRps)!.p99 ? "p99 no worse" : "p99 WORSE")),
    ],
    ...(
      [
        [`list ${SIZES.small.toLocaleString("en-US")} rows`, small, bestSmall],
        [`list ${SIZES.big.toLocaleString("en-US")} rows`, big, bestBig],
      ] as const
    ).map(([label, m, b]) => [
      label,
      ...all.map((t) => ms(m.get(t)!)),
      b.name,
      // As a speed: the best peer's time over ours, so that ≥ 1.0× is ahead here too.
      ...ours.map((t) => `${(m.get(b)! / m.get(t)!).toFixed(2)}×`),
    ]),
  ];
  console.log(`\n${table(rows)}`);
  if (skipped.length) console.log(`\nnot measured: ${skipped.join(", ")} (see above)`);
  console.log(`load average (1, 5, 15 min) at start and after each step: ${loads.join(" | ")}`);
} finally {
  for (const t of [...ours, ...peers]) await t.stop().catch((e) => console.error(`stopping ${t.name}:`, e));
}
console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
process.exit(0);
