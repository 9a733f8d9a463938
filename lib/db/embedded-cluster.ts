import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { readMigrations } from "./migration-files.ts";

// The embedded database's cluster. PostgreSQL's initdb and the migrations run once per install,
// into a template kept in node_modules/.cache; each new data directory is a copy of it (50 ms
// against 5–8 s for initdb and the migrations: bench:server). The template is made in a
// short-lived child process: run in the server's own process, initdb leaves about 110 MB of the
// database's wasm memory resident for the server's whole life. Only node built-ins and the
// migration reader here: the launcher imports this module before the app is loaded.

type Memo = Map<string, Promise<unknown>>;
const memo = (name: string): Memo => ((globalThis as unknown as Record<string, Memo | undefined>)[name] ??= new Map());
const creating = memo("__cellwrightClusters");
const templates = memo("__cellwrightClusterTemplates");

const appRoot = () => /*turbopackIgnore: true*/ process.cwd();

/** The embedded database's own directory inside DATA_DIR. */
export const embeddedDir = (dataDir: string) => path.join(dataDir, "pglite");

const isCluster = (dir: string) => existsSync(path.join(dir, "PG_VERSION"));

/** Creates the cluster of DATA_DIR's embedded database unless it exists; the caller holds the data-dir lock. */
export function createEmbeddedCluster(dataDir: string): Promise<void> {
  const dir = embeddedDir(dataDir);
  if (isCluster(dir)) return Promise.resolve();
  return once(creating, dir, () => copyApart(dir));
}

/** Runs make once per key at a time; a failure is forgotten, so a retry tries again. */
function once<T>(running: Memo, key: string, make: () => Promise<T>): Promise<T> {
  let p = running.get(key) as Promise<T> | undefined;
  if (!p) {
    p = make().catch((e) => {
      running.delete(key);
      throw e;
    });
    running.set(key, p);
  }
  return p;
}

/**
 * The copy is made in a sibling directory that takes the real name only once it is complete, so a
 * process killed mid-creation leaves no half-made cluster for the next start to open.
 */
async function copyApart(dir: string): Promise<void> {
  const building = `${dir}.creating`;
  rmSync(building, { recursive: true, force: true });
  try {
    const template = await embeddedTemplate().catch((e) => {
      console.warn(
        `[cellwright] no embedded database template (${(e as Error).message}); creating the database in place`,
      );
      return null;
    });
    if (template) cpSync(template, building, { recursive: true });
    else await makeCluster(building);
    renameSync(building, dir);
  } catch (e) {
    throw new Error(`could not create the embedded database in ${dir}: ${(e as Error).message}`);
  }
}

/**
 * The template for this install: a new cluster with every migration applied, named by PGlite's
 * version and the migrations, so an upgrade of either makes a new one. Processes making it at the
 * same time (parallel test files) each build apart; the first rename wins.
 */
export async function embeddedTemplate(): Promise<string> {
  // Async, so that a key that cannot be read (no PGlite package where expected) is a rejection
  // the callers fall back on, not a throw.
  const dir = embeddedTemplateDir();
  if (isCluster(dir)) return dir;
  return once(templates, dir, async () => {
    mkdirSync(path.dirname(dir), { recursive: true });
    clearStale(dir);
    const building = `${dir}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    await makeCluster(building);
    try {
      renameSync(building, dir);
    } catch (e) {
      rmSync(building, { recursive: true, force: true });
      if (!isCluster(dir)) throw e;
    }
    return dir;
  });
}

/** Where this install's template is (or will be). */
export const embeddedTemplateDir = () =>
  path.join(appRoot(), "node_modules", ".cache", "cellwright", `pglite-${templateKey()}`);

function templateKey(): string {
  const pglite = JSON.parse(
    readFileSync(path.join(appRoot(), "node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
  ).version;
  const hash = createHash("sha256").update(pglite);
  for (const m of readMigrations()) hash.update(`\n${m.name} ${m.checksum}`);
  return hash.digest("hex").slice(0, 16);
}

/**
 * Templates of an earlier PGlite or migration set, which this install no longer uses, and
 * half-made ones that a process killed while making them left an hour or more ago.
 */
function clearStale(dir: string): void {
  const parent = path.dirname(dir);
  for (const name of readdirSync(parent)) {
    if (name === path.basename(dir) || !name.startsWith("pglite-")) continue;
    const p = path.join(parent, name);
    const building = name.includes(".");
    if (!building || Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { recursive: true, force: true });
  }
}

/** initdb and the migrations, in a child process (lib/cli/embedded-template.ts). */
async function makeCluster(dir: string): Promise<void> {
  // The child is named from the app's directory: a bundler rewrites what this module would resolve.
  const launch = path.join(appRoot(), "lib", "cli", "launch.mjs");
  try {
    await promisify(execFile)(process.execPath, [launch, "embedded-template", dir], {
      cwd: appRoot(),
      timeout: 180_000,
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error((e as { stderr?: string }).stderr?.trim() || (e as Error).message);
  }
}
