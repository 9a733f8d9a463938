import { readFileSync } from "node:fs";
import pg from "pg";

// CPU time of other processes, from /proc (Linux): what a multi-process bench spends, whichever
// process spends it. A process gone by the second reading counts up to its last one.

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of `pid` in ms, or 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server processes serving `database` now (the server on this machine). */
export async function backendPids(adminUrl: string, database: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database]);
    return rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

/** Sums the CPU of a changing set of processes between `start` and `stop`, by group. */
export function cpuMeter() {
  const first = new Map<number, number>();
  const last = new Map<number, { group: string; ms: number }>();
  return {
    /** Records the processes' CPU now; call it at the start, during the run (new processes) and at the end. */
    sample(group: string, pids: readonly number[]) {
      for (const pid of pids) {
        const ms = cpuMs(pid);
        if (!first.has(pid)) first.set(pid, ms);
        if (ms > 0) last.set(pid, { group, ms });
      }
    },
    totals(): Record<string, number> {
      const out: Record<string, number> = {};
      for (const [pid, { group, ms }] of last) out[group] = (out[group] ?? 0) + ms - (first.get(pid) ?? ms);
      return out;
    },
  };
}
