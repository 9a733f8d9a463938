import type { AppEvent } from "../events.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "./database.ts";

/** A transaction plus the events to emit once it has committed. */
export interface Work {
  tx: Tx;
  emit(event: AppEvent): void;
}

/**
 * Runs fn in one transaction and emits its events only after the commit, so that webhooks,
 * the engine and live UIs never react to state that could still roll back.
 */
export async function inTransaction<T>(rt: Pick<Runtime, "db" | "bus">, fn: (w: Work) => Promise<T>): Promise<T> {
  const events: AppEvent[] = [];
  const result = await rt.db.prisma.$transaction((tx) => fn({ tx, emit: (e) => events.push(e) }), {
    maxWait: 30_000,
    timeout: 120_000,
  });
  rt.bus.emit(events);
  return result;
}
