import { execFile } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

// PostgreSQL's initdb for the embedded database, in a short-lived child process. Run in the
// server's own process, initdb leaves about 110 MB of the database's wasm memory resident for the
// server's whole life (bench:server); a child gives it back when it exits. `npm start` begins it
// before Next.js prepares, so the two overlap; the boot then awaits the same promise. Only node
// built-ins here: the launcher imports this module before the app is loaded.

const creating: Map<string, Promise<void>> = ((globalThis as { __cellwrightClusters?: Map<string, Promise<void>> }).__cellwrightClusters ??= new Map());

/** The embedded database's own directory inside DATA_DIR. */
export const embeddedDir = (dataDir: string) => path.join(dataDir, "pglite");

/** Creates the cluster of DATA_DIR's embedded database unless it exists; the caller holds the data-dir lock. */
export function createEmbeddedCluster(dataDir: string): Promise<void> {
  const dir = embeddedDir(dataDir);
  if (existsSync(path.join(dir, "PG_VERSION"))) return Promise.resolve();
  let created = creating.get(dir);
  if (!created) {
    // A failed creation is forgotten, so a retry in this process tries again.
    created = initdbApart(dir).catch((e) => {
      creating.delete(dir);
      throw e;
    });
    creating.set(dir, created);
  }
  return created;
}

/**
 * initdb writes into a sibling directory that takes the real name only once it is complete, so a
 * process killed mid-creation leaves no half-made cluster for the next start to open.
 */
async function initdbApart(dir: string): Promise<void> {
  const building = `${dir}.creating`;
  rmSync(building, { recursive: true, force: true });
  // The child resolves the package from the app's directory: a bundler rewrites what this module
  // would resolve itself.
  const script = `(async () => { const db = new (require("@electric-sql/pglite").PGlite)(process.argv[1]); await db.waitReady; await db.close(); })()
    .catch((e) => { console.error(e?.message ?? e); process.exit(1); });`;
  try {
    await promisify(execFile)(process.execPath, ["-e", script, building], { cwd: process.cwd(), timeout: 120_000 });
    renameSync(building, dir);
  } catch (e) {
    const detail = (e as { stderr?: string }).stderr?.trim() || (e as Error).message;
    throw new Error(`could not create the embedded database in ${dir}: ${detail}`);
  }
}
