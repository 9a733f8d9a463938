// A typed in-process bus for after-commit events. Emit only after the transaction that caused
// the event has committed, so listeners never see state that could still roll back.

export type AppEvent =
  | {
      type: "cell.updated";
      workspaceId: string;
      baseId: string;
      rowId: string;
      columnId: string;
      status: string;
    }
  | { type: "row.sheet.processed"; workspaceId: string; baseId: string; sheetId: string; rowId: string }
  | {
      type: "rows.changed";
      workspaceId: string;
      baseId: string;
      rowIds: string[];
      kind: "added" | "updated" | "deleted";
    }
  | { type: "structure.changed"; workspaceId: string; baseId: string }
  | { type: "work.available" }
  /** A find was started, extended or resumed: the find workers claim (cells stored never make one ready). */
  | { type: "finds.available" }
  /** A run's progress or state changed (its cells, its spending, pause, resume, cancel, done). */
  | { type: "run.updated"; workspaceId: string; baseId: string; runId: string }
  /** A stored answer replaced a different value (compared by the column's type): monitors watch for it. */
  | ({ type: "cell.changed"; workspaceId: string; baseId: string } & CellChangedData)
  /** A find's progress or state changed (candidates found, verified, added; stopped). */
  | { type: "find.updated"; workspaceId: string; baseId: string; findId: string }
  /** An import's progress or state changed (after each committed batch, and when it ends). */
  | {
      type: "import.updated";
      workspaceId: string;
      baseId: string;
      importId: string;
      status: string;
      linesDone: number;
      linesTotal: number | null;
    }
  /** These cells were cancelled: whichever worker runs one aborts its model call and tool fetches. */
  | { type: "cells.cancelled"; refs: { rowId: string; columnId: string }[] }
  /** This evaluation run was cancelled: whichever worker runs one of its rows aborts the row's model calls. */
  | { type: "evaluation.cancelled"; runId: string }
  /** A schedule was made, changed or deleted: wakes the schedulers to read the earliest tick again. */
  | { type: "schedules.changed" }
  /** A webhook message became due outside a settle (a redelivery): wakes the relay. */
  | { type: "webhooks.queued" }
  /** Stored files whose records were deleted (with their base): their bytes can go. */
  | { type: "files.released"; storagePaths: string[] };

/** One real change of a generated cell: the values on both sides, where the new one came from, and why it counts. */
export interface CellChangedData {
  rowId: string;
  columnId: string;
  runId: string | null;
  before: string;
  after: string;
  sources: string[];
  confidence: number | null;
  reason: string;
}

/** The base a transactional event concerns. */
export interface BaseRef {
  baseId: string;
  workspaceId: string;
  sheetId: string;
}

/**
 * Facts announced inside a transaction, for reactions that must commit with it: the webhook outbox
 * (rows settled) and a queue engine's jobs (cells queued). Lower layers announce them; the runtime
 * wires in the reactions, so the domain never imports webhooks or the queue.
 */
export type TxEvent =
  | { type: "cells.queued"; refs: readonly { rowId: string; columnId: string }[] }
  | { type: "rows.settled"; base: BaseRef; rowIds: readonly string[] }
  /** Generated cells whose value really changed: the outbox writes `cell.changed`. */
  | { type: "cells.changed"; workspaceId: string; baseId: string; changes: readonly CellChangedData[] }
  /** A run finished (none of its cells is pending or running): the outbox writes `run.completed`. */
  | { type: "run.completed"; workspaceId: string; baseId: string; run: Record<string, unknown> & { id: string } }
  /** A find stopped (its target reached, its search exhausted, its budget spent, or cancelled): the outbox writes `find.completed`. */
  | { type: "find.completed"; workspaceId: string; baseId: string; find: Record<string, unknown> & { id: string } };

type Listener = (event: AppEvent) => void;

export class EventBus {
  private listeners = new Set<Listener>();

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(events: AppEvent | AppEvent[]): void {
    for (const event of Array.isArray(events) ? events : [events]) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (e) {
          console.error("[cellwright] event listener failed:", e);
        }
      }
    }
  }
}
