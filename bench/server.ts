// npm run bench:server — the production server as `npm start` runs it, on PGlite: from spawn to the
// first answered request, on an empty data directory and on one holding 100,000 rows; its processes;
// its resident memory idle and after listing 100,000 rows; the first start after `npm ci`. Floor: a
// bare Node HTTP server's start to its first answer, in the same run. Goals: start < 5 s, the first
// start < 90 s, one process, RSS < 400 MB idle and < 600 MB after the listing.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { call, ensureBuild, rssOf, startProcess, startServer } from "./rows-server.ts";
import { mb, table } from "./support.ts";
import { embeddedTemplateDir } from "../lib/db/embedded-cluster.ts";

const ROWS = 100_000;
const BATCH = 10_000;
// About 10 s after start, V8 shrinks the heap that loading left behind (15 MB of resident memory
// in two samples): idle is measured after that.
const SETTLE_MS = 15_000;
const FIRST_DIST_DIR = ".next-bench-first";

/** The process and every process below it. */
function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const line of spawnSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" }).stdout.trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    parentOf.set(child, parent);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  return tree;
}

const bareServer = `require("node:http").createServer((q, s) => s.end("ok")).listen(Number(process.env.PORT), "127.0.0.1")`;

const treeRss = (pid: number) => processTree(pid).reduce((n, p) => n + rssOf(p), 0);

ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-server-"));
const key = `cw_${randomBytes(24).toString("hex")}`;
const env = { DATA_DIR: dataDir, API_KEY: key };
try {
  const floor = await startProcess(process.execPath, ["-e", bareServer], process.env, "/");
  await floor.stop();

  const empty = await startServer(env);
  await sleep(SETTLE_MS);
  const processes = processTree(empty.pid).length;
  const idleEmpty = treeRss(empty.pid);
  const base = await call(empty, key, "POST", "/api/v1/bases", {
    baseName: "Bench",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Website", type: "url" },
      { name: "Employees", type: "number" },
    ],
  });
  for (let i = 0; i < ROWS; i += BATCH) {
    const rows = Array.from({ length: BATCH }, (_, j) => ({
      cells: { Company: `Company ${i + j}`, Website: `https://c${i + j}.example`, Employees: String((i + j) % 5000) },
    }));
    await call(empty, key, "POST", `/api/v1/bases/${base.baseId}/add-rows`, { rows });
  }
  await empty.stop();

  const full = await startServer(env);
  await sleep(SETTLE_MS);
  const idleFull = treeRss(full.pid);
  const listed = await call(full, key, "GET", `/api/v1/bases/${base.baseId}/rows`);
  if (listed.rows.length !== ROWS) throw new Error(`listed ${listed.rows.length} rows`);
  await sleep(SETTLE_MS);
  const afterListing = treeRss(full.pid);
  await full.stop();

  // The first start after `npm ci`: no build and no database template (npm ci empties
  // node_modules/.cache), so it builds, makes the template and starts.
  rmSync(embeddedTemplateDir(), { recursive: true, force: true });
  // next build adds the type directories of a new build directory to tsconfig.json.
  const tsconfig = readFileSync("tsconfig.json", "utf8");
  const firstDataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-server-"));
  const first = await startServer({ DATA_DIR: firstDataDir, API_KEY: key, NEXT_DIST_DIR: FIRST_DIST_DIR }).finally(() =>
    writeFileSync("tsconfig.json", tsconfig),
  );
  await first.stop();
  rmSync(firstDataDir, { recursive: true, force: true });

  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`\nbench:server — the production server as npm start runs it, on PGlite\n`);
  console.log(
    table([
      ["measure", "server", "floor", "goal"],
      [
        "start to first answer, empty data directory",
        s(empty.startMs),
        `${s(floor.startMs)} (bare Node HTTP)`,
        "< 5 s",
      ],
      ["start to first answer, 100,000 rows", s(full.startMs), s(floor.startMs), "< 5 s"],
      ["first start after npm ci (build, database template, start)", s(first.startMs), s(floor.startMs), "< 90 s"],
      ["processes", String(processes), "1", "1"],
      ["RSS idle, empty data directory", mb(idleEmpty), "", "< 400 MB"],
      ["RSS idle, 100,000 rows", mb(idleFull), "", "< 400 MB"],
      ["RSS after listing 100,000 rows", mb(afterListing), "", "< 600 MB"],
    ]),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(FIRST_DIST_DIR, { recursive: true, force: true });
}
