// npm run bench:server — the production server as `npm start` runs it, on PGlite: from spawn to the
// first answered request, on an empty data directory and on one holding 100,000 rows; its processes;
// its resident memory idle and after listing 100,000 rows. Floor: a bare Node HTTP server's start
// to its first answer, in the same run. Goals: start < 5 s, one process, RSS < 400 MB idle and
// < 600 MB after the listing.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ensureBuild, freePort, root, rssOf } from "./rows-server.ts";
import { mb, table } from "./support.ts";

const ROWS = 100_000;
const BATCH = 10_000;
const SETTLE_MS = 5_000;

/** `npm start`'s own command line, run without npm in front, so the figures are the server's. */
function startArgs(): string[] {
  const script = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  const [command, ...args] = script.split(/\s+/);
  if (command !== "node") throw new Error(`npm start runs ${command}, not node`);
  return args;
}

/** The process and every process below it (Linux /proc). */
function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone since the listing
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  return tree;
}

async function firstAnswer(url: string, child: ChildProcess, t0: number): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (await fetch(url).then((r) => r.ok, () => false)) return performance.now() - t0;
    await sleep(20);
  }
}

async function start(command: string, args: string[], env: Record<string, string>, probe: string) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), ...env }, stdio: "ignore" });
  const startMs = await firstAnswer(`http://127.0.0.1:${port}${probe}`, child, t0);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    startMs,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const bareServer = `require("node:http").createServer((q, s) => s.end("ok")).listen(Number(process.env.PORT), "127.0.0.1")`;

async function call(url: string, key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(url + p, { method, headers: { "x-api-key": key, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p} → ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const treeRss = (pid: number) => processTree(pid).reduce((n, p) => n + rssOf(p), 0);

ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-server-"));
const key = `cw_${randomBytes(24).toString("hex")}`;
const env = { DATA_DIR: dataDir, API_KEY: key, API_RATE_LIMIT: "0" };
try {
  const floor = await start(process.execPath, ["-e", bareServer], {}, "/");
  await floor.stop();

  const empty = await start(process.execPath, startArgs(), env, "/api/health");
  await sleep(SETTLE_MS);
  const processes = processTree(empty.pid).length;
  const idleEmpty = treeRss(empty.pid);
  const base = await call(empty.url, key, "POST", "/api/v1/bases", { baseName: "Bench", columns: [{ name: "Company", isPrimary: true }, { name: "Website", type: "url" }, { name: "Employees", type: "number" }] });
  for (let i = 0; i < ROWS; i += BATCH) {
    const rows = Array.from({ length: BATCH }, (_, j) => ({ cells: { Company: `Company ${i + j}`, Website: `https://c${i + j}.example`, Employees: String((i + j) % 5000) } }));
    await call(empty.url, key, "POST", `/api/v1/bases/${base.baseId}/add-rows`, { rows });
  }
  await empty.stop();

  const full = await start(process.execPath, startArgs(), env, "/api/health");
  await sleep(SETTLE_MS);
  const idleFull = treeRss(full.pid);
  const listed = await call(full.url, key, "GET", `/api/v1/bases/${base.baseId}/rows`);
  if (listed.rows.length !== ROWS) throw new Error(`listed ${listed.rows.length} rows`);
  await sleep(SETTLE_MS);
  const afterListing = treeRss(full.pid);
  await full.stop();

  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`\nbench:server — the production server as npm start runs it, on PGlite\n`);
  console.log(
    table([
      ["measure", "server", "floor", "goal"],
      ["start to first answer, empty data directory", s(empty.startMs), `${s(floor.startMs)} (bare Node HTTP)`, "< 5 s"],
      ["start to first answer, 100,000 rows", s(full.startMs), s(floor.startMs), "< 5 s"],
      ["processes", String(processes), "1", "1"],
      ["RSS idle, empty data directory", mb(idleEmpty), "", "< 400 MB"],
      ["RSS idle, 100,000 rows", mb(idleFull), "", "< 400 MB"],
      ["RSS after listing 100,000 rows", mb(afterListing), "", "< 600 MB"],
    ]),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
