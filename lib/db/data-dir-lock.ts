import path from "node:path";
import { readFileSync, writeFileSync, rmSync } from "node:fs";

export interface DataDirLock {
  release(): void;
}

/** Linux's view of a process: its state letter and start time, or null when it does not exist. */
function procStat(pid: number): { state: string; startTime: string } | null | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces; the fields after its closing ")" do not.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], startTime: fields[19] };
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

const myStartTime = () => procStat(process.pid)?.startTime ?? "";

/**
 * Whether the process that wrote the lock still holds it. A killed process can linger as a zombie
 * (in a container whose init does not reap) and a pid can be reused, so on Linux the holder must
 * be a live process with the start time the lock recorded.
 */
function holderAlive(pid: number, startTime: string): boolean {
  const stat = procStat(pid);
  if (stat === null) return false;
  if (stat) return stat.state !== "Z" && stat.state !== "X" && (!startTime || stat.startTime === startTime);
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
  let holder: [number, string] | undefined;
  try {
    const [pid, startTime = ""] = readFileSync(file, "utf8").trim().split(":");
    holder = [Number(pid), startTime];
  } catch {
    holder = undefined;
  }
  if (holder?.[0] && holder[0] !== process.pid && holderAlive(holder[0], holder[1])) {
    throw new DataDirBusyError(dataDir, holder[0]);
  }
  writeFileSync(file, `${process.pid}:${myStartTime()}`);
  return {
    release() {
      try {
        if (Number(readFileSync(file, "utf8").trim().split(":")[0]) === process.pid) rmSync(file);
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
