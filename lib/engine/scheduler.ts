import type { Runtime } from "../runtime.ts";
import { inTransaction } from "../db/work.ts";
import {
  dueSchedules,
  earliestTick,
  recordTickError,
  runTick,
  type Execution,
  type SchedulePolicies,
} from "../domain/schedules/index.ts";
import { findPolicy } from "./find/policy.ts";

// The scheduler of a process that runs background work: it sleeps until the earliest tick of any
// schedule (at most maxSleepMs, so a schedule another process made without a bridged event is
// seen), then claims and runs each due tick. Claims are compare-and-sets on next_run_at
// (domain/schedules/execute.ts), so every process may run a scheduler: each tick runs once.
// The clock is injected: tests move time without waiting.

export interface SchedulerOptions {
  now?: () => Date;
  maxSleepMs?: number;
  /** false: no timers; the caller runs each pass (tests that step the clock). */
  timers?: boolean;
  /** Called as each claimed tick starts (bench:schedules measures how late). */
  onTick?: (tick: TickRecord) => void;
}

export interface TickRecord {
  scheduleId: string;
  dueAt: Date;
  /** The real time the tick's claim started, by Date.now(). */
  startedAt: number;
  execution: Execution | { outcome: "error"; message: string } | null;
}

export interface Scheduler {
  /** Claims and runs every tick due now; returns those this process ran (null execution: another took it). */
  pass(): Promise<TickRecord[]>;
  wake(): void;
  stop(): Promise<void>;
}

export const SCHEDULER_MAX_SLEEP_MS = 30_000;

/** What a tick may spend: the deployment's run settings, charged to no API key. */
export function schedulePolicies(config: Runtime["config"]): SchedulePolicies {
  const run = { ...config.runs, mayQueue: true, keyId: null };
  return { run, find: findPolicy(config, run) };
}

export function startScheduler(rt: Runtime, opts: SchedulerOptions = {}): Scheduler {
  const now = opts.now ?? (() => new Date());
  const maxSleepMs = opts.maxSleepMs ?? SCHEDULER_MAX_SLEEP_MS;
  const policies = schedulePolicies(rt.config);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;

  async function runOne(id: string, dueAt: Date): Promise<TickRecord> {
    const startedAt = Date.now();
    try {
      const execution = await inTransaction(rt, (w) => runTick(w, id, dueAt, now(), policies));
      return { scheduleId: id, dueAt, startedAt, execution };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const recorded = await rt.db.prisma.$transaction((tx) => recordTickError(tx, id, dueAt, now(), message));
      if (recorded) console.error(`[cellwright] schedule ${id}: the tick of ${dueAt.toISOString()} failed: ${message}`);
      return { scheduleId: id, dueAt, startedAt, execution: recorded ? { outcome: "error", message } : null };
    }
  }

  async function pass(): Promise<TickRecord[]> {
    const out: TickRecord[] = [];
    // Bounded: a tick that stays due (its claim lost to a change meanwhile) is left to the next pass.
    for (let round = 0; round < 10; round++) {
      const due = await dueSchedules(rt.db.prisma, now());
      for (const d of due) {
        if (stopped) return out;
        const record = await runOne(d.id, d.nextRunAt);
        opts.onTick?.(record);
        out.push(record);
      }
      if (due.length < 100) return out;
    }
    return out;
  }

  function arm(delayMs: number) {
    if (stopped || opts.timers === false) return;
    clearTimeout(timer);
    timer = setTimeout(loop, Math.max(0, Math.min(delayMs, maxSleepMs)));
    timer.unref?.();
  }

  function loop() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        await pass();
        const earliest = await earliestTick(rt.db.prisma);
        arm(earliest ? earliest.getTime() - now().getTime() : maxSleepMs);
      } catch (e) {
        if (!stopped) console.error("[cellwright] the scheduler failed:", e);
        arm(1_000);
      } finally {
        running = undefined;
        if (again) {
          again = false;
          loop();
        }
      }
    })();
  }

  const off = rt.bus.on((e) => {
    if (e.type === "schedules.changed") loop();
  });
  if (opts.timers !== false) loop();

  const scheduler: Scheduler = {
    pass,
    wake: loop,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      off();
      await running;
    },
  };
  rt.services.push({ name: "scheduler", stop: () => scheduler.stop() });
  return scheduler;
}
