import type { AppEvent, EventBus, TxEvent } from "../events.ts";
import type { CopyIn } from "./copy-in.ts";
import type { Database, Tx } from "./database.ts";

/**
 * Reacts to a fact inside the transaction that announced it (the outbox, a queue engine's jobs).
 * It may return events to emit after that transaction commits (the outbox wakes the relay only
 * when it wrote messages).
 */
export type TxReaction = (tx: Tx, event: TxEvent) => Promise<readonly AppEvent[] | undefined>;

/** A transaction plus the events to emit once it has committed. */
export interface Work {
  tx: Tx;
  /** After commit: the engine, live UIs and the webhook relay hear it. */
  emit(event: AppEvent): void;
  /** Now, inside the transaction: its reactions commit or roll back with it. */
  publish(event: TxEvent): Promise<void>;
  /** COPY into this very transaction (PostgreSQL only; copy-in.ts): large inserts take it. */
  copyIn?: CopyIn;
}

/** What a unit of work needs from the runtime. */
export interface UnitOfWork {
  db: Pick<Database, "prisma"> & Partial<Pick<Database, "copyIn">>;
  bus: EventBus;
  reactions: readonly TxReaction[];
}

/**
 * Runs fn in one transaction and emits its events only after the commit, so that webhooks,
 * the engine and live UIs never react to state that could still roll back.
 */
export async function inTransaction<T>(uow: UnitOfWork, fn: (w: Work) => Promise<T>): Promise<T> {
  const events: AppEvent[] = [];
  const result = await uow.db.prisma.$transaction(
    (tx) =>
      fn({
        tx,
        emit: (e) => events.push(e),
        publish: async (e) => {
          for (const react of uow.reactions) events.push(...((await react(tx, e)) ?? []));
        },
        copyIn: uow.db.copyIn,
      }),
    { maxWait: 30_000, timeout: 120_000 },
  );
  uow.bus.emit(events);
  return result;
}
