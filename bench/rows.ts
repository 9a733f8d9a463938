// npm run bench:rows — the table data API on the production server against floors measured in
// the same run, on PGlite and (when 127.0.0.1:5432 answers) PostgreSQL:
//   Add Rows, 10,000 rows × 6 columns in one request   vs the same INSERT through the driver   (≤ 3×)
//   the same into a new base beside 100,000 rows        vs into the empty database (rate)        (≥ 0.8×)
//   Get Rows, all rows at 10,000 and 100,000            vs raw SELECT + JSON.stringify          (≤ 2×)
//   server RSS growth while streaming 100,000 rows                                              (< 150 MB)
//   Get Row under load, autocannon 10 connections 10 s  vs a bare route handler's requests/s   (≥ 50%)
//   Update Rows at 1,000 and 100 rows a request          vs Add Rows at the same batch size      (≥ 0.7×)
// BENCH_ONLY=list measures only Get Rows and its floor (bench/rows-listing.ts).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { call, ensureBuild, rssOf, sampleRss, startServer } from "./rows-server.ts";
import { freshPostgres, insertRows, openDriver, postgresAnswers, selectAndStringify } from "./rows-floor.ts";
import { cellsOf, COLUMNS, LOAD_SECONDS, loadPair, median, timed, updatesAgainstInserts } from "./rows-measures.ts";
import { listingFigures } from "./rows-listing.ts";

const ROWS = 10_000;
const BIG = 100_000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** BENCH_ONLY=list: only the listing's measures (Get Rows and its floor), for a quick run on a busy machine. */
const LIST_ONLY = process.env.BENCH_ONLY === "list";

interface Figure {
  store: string;
  measure: string;
  value: string;
  floor: string;
  ratio: string;
  target: string;
  ok: boolean;
}
const figures: Figure[] = [];

const ms = (t: number) => `${t.toFixed(0)} ms`;
async function benchStore(store: "pglite" | "postgres") {
  const key = `cw_${randomBytes(24).toString("hex")}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-rows-"));
  const pgdb = store === "postgres" ? await freshPostgres(PG_URL) : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    API_KEY: key,
    BENCH_FLOOR: "true",
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
  };
  console.log(`\n== ${store}: starting the production server`);
  const server = await startServer(env);
  try {
    const bases: { baseId: string; sheet: { id: string }; sheetColumns: { name: string; id: string }[] }[] = [];
    for (let i = 0; i < 4; i++)
      bases.push(await call(server, key, "POST", "/api/v1/bases", { baseName: `Bench ${i}`, columns: COLUMNS }));
    const colIds = Object.fromEntries(bases[0].sheetColumns.map((c) => [c.name, c.id]));
    const batch = (offset: number) => ({
      rows: Array.from({ length: ROWS }, (_, i) => ({ cells: cellsOf(offset + i + 1) })),
    });

    console.log("   Add Rows ×3 (10,000 rows each), then 100,000 rows into one base");
    const addTimes: number[] = [];
    let someRowId = "";
    for (let i = 0; i < 3; i++) {
      const body = batch(0);
      const added = await timed(async () => {
        const res = await call(server, key, "POST", `/api/v1/bases/${bases[i].baseId}/add-rows`, body);
        if (i === 0) someRowId = res.rows[ROWS / 2].id;
      });
      addTimes.push(added);
    }
    for (let i = 0; i < BIG / ROWS; i++)
      await call(server, key, "POST", `/api/v1/bases/${bases[3].baseId}/add-rows`, batch(i * ROWS));
    // Once a database holds a large base, a new base must fill as fast as the first ones did.
    console.log("   Add Rows ×3 into new bases beside the base of 100,000");
    const besideTimes: number[] = [];
    for (let i = 0; i < (LIST_ONLY ? 0 : 3); i++) {
      const fresh = await call(server, key, "POST", "/api/v1/bases", { baseName: `Beside ${i}`, columns: COLUMNS });
      besideTimes.push(
        await timed(() => call(server, key, "POST", `/api/v1/bases/${fresh.baseId}/add-rows`, batch(0))),
      );
    }

    console.log("   Get Rows at 10,000 (×3) and 100,000 (×2, watching the server's RSS)");
    // As curl asks by default: no compression. (With gzip, next start compresses the stream on
    // the server's one thread; that cost is shown on its own line.)
    const getAll = async (baseId: string, expect: number, encoding = "identity") => {
      const res = await fetch(`${server.url}/api/v1/bases/${baseId}/rows`, {
        headers: { "x-api-key": key, "accept-encoding": encoding },
      });
      const buf = await res.arrayBuffer();
      if (!res.ok) throw new Error(`Get Rows → ${res.status}`);
      return { bytes: buf.byteLength, check: () => JSON.parse(new TextDecoder().decode(buf)).rows.length === expect };
    };
    const first = await getAll(bases[0].baseId, ROWS);
    if (!first.check()) throw new Error("Get Rows did not return 10,000 rows");
    const get10k = [];
    for (let i = 0; i < 3; i++) get10k.push(await timed(() => getAll(bases[0].baseId, ROWS)));
    const get100k = [];
    let growth = 0;
    let rssBefore = 0;
    for (let i = 0; i < 2; i++) {
      rssBefore = rssOf(server.pid);
      const sampler = sampleRss(server.pid);
      let result: Awaited<ReturnType<typeof getAll>> | undefined;
      get100k.push(await timed(async () => (result = await getAll(bases[3].baseId, BIG))));
      growth = Math.max(growth, sampler.stop() - rssBefore);
      if (i === 0 && !result!.check()) throw new Error("Get Rows did not return 100,000 rows");
    }
    const gzip100k = await timed(() => getAll(bases[3].baseId, BIG, "gzip"));

    if (LIST_ONLY) {
      await server.stop();
      const driver = await openDriver(pgdb ? { url: pgdb.url } : { dataDir });
      try {
        figures.push(...(await listingFigures(store, driver, bases, { get10k, get100k, gzip100k, growth, rssBefore })));
      } finally {
        await driver.close();
      }
      return;
    }

    console.log("   Update Rows against Add Rows, at 1,000 and 100 rows a request");
    const writes = await updatesAgainstInserts(server, key, bases[1].baseId);

    console.log(`   Get Row and the bare route handler under load (${LOAD_SECONDS} s each, in alternating slices)`);
    const [getRow, floorRow] = await loadPair(
      { url: `${server.url}/api/v1/bases/${bases[0].baseId}/rows/${someRowId}`, headers: { "x-api-key": key } },
      { url: `${server.url}/api/bench-floor` },
    );
    await server.stop();

    console.log("   floors through the driver, on the same database");
    const driver = await openDriver(pgdb ? { url: pgdb.url } : { dataDir });
    try {
      const sel10k = [];
      for (let i = 0; i < 3; i++) sel10k.push(await timed(() => selectAndStringify(driver, bases[0].sheet.id)));
      const sel100k = [];
      for (let i = 0; i < 2; i++) sel100k.push(await timed(() => selectAndStringify(driver, bases[3].sheet.id)));
      const insert = [];
      for (let i = 0; i < 3; i++) {
        const rows = Array.from({ length: ROWS }, (_, j) => ({
          id: `sr_floor${i}_${j}`,
          values: Object.fromEntries(Object.entries(cellsOf(j + 1)).map(([name, v]) => [colIds[name], v])),
        }));
        insert.push(await timed(() => insertRows(driver, bases[i].sheet.id, rows)));
      }
      const add = median(addTimes);
      const beside = median(besideTimes);
      const fAdd = median(insert);
      const r10 = median(get10k);
      const f10 = median(sel10k);
      const r100 = Math.min(...get100k);
      const f100 = Math.min(...sel100k);
      figures.push(
        {
          store,
          measure: "Add Rows 10,000 × 6 (one request)",
          value: ms(add),
          floor: ms(fAdd),
          ratio: `${(add / fAdd).toFixed(2)}×`,
          target: "≤ 3×",
          ok: add / fAdd <= 3,
        },
        {
          store,
          measure: "Add Rows 10,000 into a new base beside 100,000 (floor: into the empty database)",
          value: ms(beside),
          floor: ms(add),
          ratio: `${(add / beside).toFixed(2)}× the rate`,
          target: "≥ 0.8×",
          ok: add / beside >= 0.8,
        },
        {
          store,
          measure: "Get Rows 10,000",
          value: ms(r10),
          floor: ms(f10),
          ratio: `${(r10 / f10).toFixed(2)}×`,
          target: "≤ 2×",
          ok: r10 / f10 <= 2,
        },
        {
          store,
          measure: "Get Rows 100,000",
          value: ms(r100),
          floor: ms(f100),
          ratio: `${(r100 / f100).toFixed(2)}×`,
          target: "≤ 2×",
          ok: r100 / f100 <= 2,
        },
        {
          store,
          measure: "Get Rows 100,000, gzip-encoded",
          value: ms(gzip100k),
          floor: ms(f100),
          ratio: `${(gzip100k / f100).toFixed(2)}×`,
          target: "",
          ok: true,
        },
        {
          store,
          measure: "server RSS growth, streaming 100,000",
          value: `${(growth / 2 ** 20).toFixed(0)} MB`,
          floor: `${(rssBefore / 2 ** 20).toFixed(0)} MB before`,
          ratio: "",
          target: "< 150 MB",
          ok: growth < 150 * 2 ** 20,
        },
        {
          store,
          measure: "Get Row under load, requests/s",
          value: getRow.rps.toFixed(0),
          floor: floorRow.rps.toFixed(0),
          ratio: `${((getRow.rps / floorRow.rps) * 100).toFixed(0)}%`,
          target: "≥ 50%",
          ok: getRow.rps / floorRow.rps >= 0.5,
        },
        ...writes.map(({ batch, update, insert }) => ({
          store,
          measure: `Update Rows, ${batch.toLocaleString("en-US")} a request, rows/s`,
          value: update.toFixed(0),
          floor: `${insert.toFixed(0)} (Add Rows)`,
          ratio: `${(update / insert).toFixed(2)}×`,
          target: "≥ 0.7×",
          ok: update / insert >= 0.7,
        })),
        {
          store,
          measure: "Get Row latency p50 / p99",
          value: `${getRow.p50} / ${getRow.p99} ms`,
          floor: `${floorRow.p50} / ${floorRow.p99} ms`,
          ratio: "",
          target: "",
          ok: true,
        },
      );
    } finally {
      await driver.close();
    }
  } finally {
    await server.stop().catch(() => undefined);
    await pgdb?.drop().catch((e) => console.error("could not drop the bench database:", e));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print() {
  const head = ["store", "measure", "Cellwright", "floor", "ratio", "target", ""];
  const rows = figures.map((f) => [
    f.store,
    f.measure,
    f.value,
    f.floor,
    f.ratio,
    f.target,
    f.target ? (f.ok ? "ok" : "MISSED") : "",
  ]);
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  console.log(`\n${line(head)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const r of rows) console.log(line(r));
}

const started = performance.now();
ensureBuild();
await benchStore("pglite");
if (process.env.BENCH_SKIP_PG === "1") console.log("\n== PostgreSQL skipped (BENCH_SKIP_PG=1)");
else if (await postgresAnswers(PG_URL)) await benchStore("postgres");
else console.log(`\n== PostgreSQL skipped: nothing answers at ${new URL(PG_URL).host}`);
print();
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
process.exit(figures.every((f) => f.ok) ? 0 : 1);
