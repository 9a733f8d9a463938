import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { getJson, IDENTITY, type Target } from "./peers-targets.ts";
import { startProcess } from "./rows-server.ts";

// The peers of bench:peers, installed on first use outside the repository (never in package.json)
// and started on SQLite on 127.0.0.1, each with two tables of the six columns bench:rows writes.

const PEERS_DIR = process.env.PEERS_DIR ?? path.join(homedir(), ".cache", "cellwright-bench-peers");
const NOCODB = process.env.PEERS_NOCODB_VERSION ?? "0.301.3";
const DIRECTUS = process.env.PEERS_DIRECTUS_VERSION ?? "12.4.0";
// NocoDB caps a list request at DB_QUERY_LIMIT_MAX rows, 1,000 unless changed.
const NOCODB_PAGE = 1_000;

/**
 * `npm install --prefix` into the cache, once. Install scripts are skipped (their prebuilt
 * binaries come from GitHub, which this machine cannot reach); the native add-ons the peer loads
 * are then rebuilt on their own: sqlite3 from source (a few minutes), isolated-vm from the
 * prebuilds inside its package.
 */
function ensureInstalled(pkg: string, version: string, natives: string[], overrides: Record<string, string> = {}) {
  const dir = path.join(PEERS_DIR, `${pkg}-${version}`);
  const ready = path.join(dir, ".bench-ready");
  if (existsSync(ready)) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: `bench-peer-${pkg}`, private: true, overrides }),
  );
  const npm = (args: string[]) => {
    const r = spawnSync("npm", [...args, "--prefix", dir, "--no-audit", "--no-fund"], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${r.status ?? r.signal})`);
  };
  npm(["install", "--ignore-scripts", `${pkg}@${version}`]);
  npm(["rebuild", ...natives, "--foreground-scripts"]);
  const installed = path.join(dir, "node_modules", pkg, "package.json");
  const v = (JSON.parse(readFileSync(installed, "utf8")) as { version: string }).version;
  if (v !== version) throw new Error(`${pkg} ${v} installed, not ${version}`);
  writeFileSync(ready, `${pkg}@${version}\n`);
  return dir;
}

/**
 * Fills a peer's table in its SQLite file with the rows bench:rows writes (ids 1..count), through
 * the sqlite3 add-on the peer uses. Their bulk APIs were too slow for 100,000 rows here (Directus:
 * 5,000 rows in about 15 s), and a read does not care how the rows arrived.
 */
function seedSqlite(peerDir: string, file: string, table: string, count: number) {
  const notes = "n".repeat(40);
  const sql = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO "${table}" (id, company, website, employees, email, founded, notes)
    SELECT i, 'Company ' || i, 'https://company' || i || '.example', i % 5000, 'info@company' || i || '.example',
      '20' || printf('%02d', i % 25) || '-01-01', 'Row ' || i || ': ${notes}' FROM n`;
  const script = `const db = new (require("sqlite3").Database)(process.argv[1]);
    db.exec(process.argv[2], (e) => { if (e) { console.error(e); process.exit(1); } db.close(); });`;
  const r = spawnSync(process.execPath, ["-e", script, file, sql], { cwd: peerDir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`seeding ${table} failed: ${r.stderr}`);
}

async function send(method: string, url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, {
    method,
    headers: { ...IDENTITY, ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A throwaway working directory for a peer: its SQLite file and anything else it writes. */
function workDir(name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `cw-bench-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment a peer starts with: this process's, without what would point it at Cellwright's database. */
const peerEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", ...extra };
  for (const k of ["DATABASE_URL", "API_KEY", "DATA_DIR"]) delete env[k];
  return env;
};

export async function startDirectus(sizes: { small: number; big: number }): Promise<Target> {
  // Its isolated-vm 5.0.3 (script operations in flows) does not build against Node 24's headers;
  // 6.2.0, the release for Node 22 and later, ships prebuilt binaries.
  const dir = ensureInstalled("directus", DIRECTUS, ["sqlite3", "isolated-vm"], { "isolated-vm": "6.2.0" });
  const work = workDir("directus");
  const token = randomBytes(24).toString("hex");
  const cli = path.join(dir, "node_modules", "directus", "cli.js");
  const env = peerEnv({
    DB_CLIENT: "sqlite3",
    DB_FILENAME: path.join(work.dir, "data.db"),
    SECRET: randomBytes(32).toString("hex"),
    ADMIN_EMAIL: "bench@example.com",
    ADMIN_PASSWORD: randomBytes(12).toString("hex"),
    ADMIN_TOKEN: token,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    TELEMETRY: "false",
    // Its pressure limiter answers 503 once the event loop lags, which a load test is bound to cause.
    PRESSURE_LIMITER_ENABLED: "false",
    STORAGE_LOCAL_ROOT: path.join(work.dir, "uploads"),
    EXTENSIONS_PATH: path.join(work.dir, "extensions"),
  });
  const boot = spawnSync(process.execPath, [cli, "bootstrap"], { cwd: work.dir, env, encoding: "utf8" });
  if (boot.status !== 0) throw new Error(`directus bootstrap failed:\n${boot.stdout}\n${boot.stderr}`);
  const server = await startProcess(process.execPath, [cli, "start"], env, "/server/ping", work.dir);
  const stop = async () => {
    await server.stop();
    work.remove();
  };
  try {
    const auth = { authorization: `Bearer ${token}` };
    for (const which of ["small", "big"] as const) {
      await send("POST", `${server.url}/collections`, auth, {
        collection: `bench_${which}`,
        meta: {},
        schema: {},
        fields: [
          {
            field: "id",
            type: "integer",
            meta: { hidden: true },
            schema: { is_primary_key: true, has_auto_increment: true },
          },
          ...(["company", "website", "email"] as const).map((field) => ({ field, type: "string", schema: {} })),
          { field: "employees", type: "integer", schema: {} },
          { field: "founded", type: "date", schema: {} },
          { field: "notes", type: "text", schema: {} },
        ],
      });
      seedSqlite(dir, env.DB_FILENAME!, `bench_${which}`, sizes[which]);
    }
    return {
      name: `Directus ${DIRECTUS}`,
      getOne: { url: `${server.url}/items/bench_small/${Math.floor(sizes.small / 2)}`, headers: auth },
      // limit=-1: every item in one answer.
      listAll: async (which) => (await getJson(`${server.url}/items/bench_${which}?limit=-1`, auth)).data.length,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

// NocoDB's package is its server as a library: an Express app hands it the HTTP server.
const NOCODB_MAIN = `
const { createRequire } = require("node:module");
const req = createRequire(process.env.BENCH_NOCODB_DIR + "/node_modules/");
const app = req("express")();
const { Noco } = req("nocodb");
const httpServer = app.listen(Number(process.env.PORT), "127.0.0.1");
Noco.init({}, httpServer, app).then((router) => app.use(router), (e) => { console.error(e); process.exit(1); });
`;

export async function startNocodb(sizes: { small: number; big: number }): Promise<Target> {
  // Its xlsx (spreadsheet import) comes from a CDN tarball this machine cannot reach: the registry's
  // last xlsx stands in; a read never calls it.
  const dir = ensureInstalled("nocodb", NOCODB, ["sqlite3"], { xlsx: "0.18.5" });
  const work = workDir("nocodb");
  const email = "bench@example.com";
  const password = `Bench#${randomBytes(8).toString("hex")}A1`;
  const env = peerEnv({
    BENCH_NOCODB_DIR: dir,
    NC_AUTH_JWT_SECRET: randomBytes(32).toString("hex"),
    NC_ADMIN_EMAIL: email,
    NC_ADMIN_PASSWORD: password,
    NC_DISABLE_TELE: "true",
    // Without NC_DB, NocoDB keeps metadata and data in a SQLite file (noco.db) in NC_TOOL_DIR.
    NC_TOOL_DIR: work.dir,
  });
  const server = await startProcess(process.execPath, ["-e", NOCODB_MAIN], env, "/api/v1/health", work.dir);
  const stop = async () => {
    await server.stop();
    work.remove();
  };
  try {
    const { token } = await send("POST", `${server.url}/api/v1/auth/user/signin`, {}, { email, password });
    const auth = { "xc-auth": token };
    const base = await send("POST", `${server.url}/api/v2/meta/bases`, auth, { title: "bench" });
    const tables: Record<"small" | "big", string> = { small: "", big: "" };
    for (const which of ["small", "big"] as const) {
      const table = await send("POST", `${server.url}/api/v2/meta/bases/${base.id}/tables`, auth, {
        table_name: `bench_${which}`,
        title: `bench_${which}`,
        columns: [
          { column_name: "id", title: "Id", uidt: "ID" },
          { column_name: "company", title: "company", uidt: "SingleLineText" },
          { column_name: "website", title: "website", uidt: "URL" },
          { column_name: "employees", title: "employees", uidt: "Number" },
          { column_name: "email", title: "email", uidt: "Email" },
          { column_name: "founded", title: "founded", uidt: "Date" },
          { column_name: "notes", title: "notes", uidt: "LongText" },
        ],
      });
      tables[which] = table.id;
      seedSqlite(dir, path.join(work.dir, "noco.db"), table.table_name, sizes[which]);
    }
    const oneId = Math.floor(sizes.small / 2);
    return {
      name: `NocoDB ${NOCODB}`,
      getOne: { url: `${server.url}/api/v2/tables/${tables.small}/records/${oneId}`, headers: auth },
      // Its list answers at most PAGE rows a request (its default maximum page size): paged by offset.
      listAll: async (which) => {
        let count = 0;
        for (let offset = 0; ; offset += NOCODB_PAGE) {
          const page = await getJson(
            `${server.url}/api/v2/tables/${tables[which]}/records?limit=${NOCODB_PAGE}&offset=${offset}`,
            auth,
          );
          count += page.list.length;
          if (page.pageInfo.isLastPage || page.list.length === 0) return count;
        }
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
