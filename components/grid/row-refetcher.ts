import { api, ApiError, basePath } from "../data/api";
import type { RowRecord } from "../data/types";
import type { RowStore } from "./row-store";

const CONCURRENCY = 6;
/** Events that arrive within this long of one another share one round of reads. */
const COALESCE_MS = 120;

/**
 * Reads changed rows again, one request a row, a few at a time. Answers can come back out of
 * order: per row, only the latest read started may write, so an older answer arriving late is
 * dropped. A row that is gone (404) leaves the store.
 */
export class RowRefetcher {
  private queued = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private latest = new Map<string, number>();
  private started = 0;
  private disposed = false;
  private readonly baseId: string;
  private readonly store: RowStore;

  constructor(baseId: string, store: RowStore) {
    this.baseId = baseId;
    this.store = store;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Queues the rows the store holds; others are read with their pages. */
  queue(rowIds: Iterable<string>): void {
    for (const id of rowIds) if (this.store.has(id)) this.queued.add(id);
    if (this.queued.size === 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.readQueued();
    }, COALESCE_MS);
  }

  private async readQueued(): Promise<void> {
    const ids = [...this.queued];
    this.queued.clear();
    const gone: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < ids.length && !this.disposed) {
        const id = ids[next++];
        const mine = ++this.started;
        this.latest.set(id, mine);
        try {
          const row = await api<RowRecord>(`${basePath(this.baseId)}/rows/${encodeURIComponent(id)}?expand=true`);
          if (this.latest.get(id) === mine) this.store.upsertExisting([row]);
        } catch (e) {
          if (e instanceof ApiError && e.status === 404 && this.latest.get(id) === mine) gone.push(id);
        } finally {
          if (this.latest.get(id) === mine) this.latest.delete(id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
    if (gone.length) this.store.remove(gone);
  }
}
