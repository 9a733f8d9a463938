import path from "node:path";
import { readFileSync, writeFileSync, rmSync } from "node:fs";

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is single-process: a second process opening the same directory would corrupt it.
 * A pid file guards the directory; a stale one (its process is gone) is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, "cellwright.lock");
  try {
    const holder = Number(readFileSync(file, "utf8").trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new DataDirBusyError(dataDir, holder);
    }
  } catch (e) {
    if (e instanceof DataDirBusyError) throw e;
  }
  writeFileSync(file, String(process.pid));
  return {
    release() {
      try {
        if (Number(readFileSync(file, "utf8").trim()) === process.pid) rmSync(file);
      } catch {
        // already gone
      }
    },
  };
}

export class DataDirBusyError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}). ` +
        "Stop the server first, use the HTTP API while it runs, or use PostgreSQL (DATABASE_URL).",
    );
    this.name = "DataDirBusyError";
  }
}

