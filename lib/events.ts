// A typed in-process bus for after-commit events. Emit only after the transaction that caused
// the event has committed, so listeners never see state that could still roll back.

export interface CellSnapshot {
  value: string;
  status?: string;
  metadata?: unknown;
  error?: { code: string; message: string };
}

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
  | { type: "rows.changed"; workspaceId: string; baseId: string; rowIds: string[]; kind: "added" | "updated" | "deleted" }
  | { type: "structure.changed"; workspaceId: string; baseId: string }
  | { type: "work.available" }
  /** A webhook message became due outside a settle (a redelivery): wakes the relay. */
  | { type: "webhooks.queued" };

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
