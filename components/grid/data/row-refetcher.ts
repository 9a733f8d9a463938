import { api, ApiError, basePath } from "../../data/api";
import type { RowRecord } from "../../data/types";

const CONCURRENCY = 6;
/** Events that arrive within this long of one another share one round of reads. */
const COALESCE_MS = 120;

/**
 * Where rows read again go: the loader's writes, handed down (row-loader.ts is the store's only
 * writer), and what it holds.
 */
export interface RowSink {
  /** Whether the row is loaded: only loaded rows are read again, the others come with their pages. */
  has(rowId: string): boolean;
  /** Rows read again. */
  updated(rows: RowRecord[]): void;
  /** Rows that are gone (404). */
  gone(rowIds: string[]): void;
}

/**
 * Reads changed rows again, one request a row, at most CONCURRENCY at a time however fast the
 * changes come: a row changed again before its read started is read once. A row changed while its
 * read is in flight is read again at once, and answers can come back out of order: per row, only
 * the latest read started may write, so an older answer arriving late is dropped. A row that is
 * gone (404) leaves the grid.
 */
export class RowRefetcher {
  private queued = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private latest = new Map<string, number>();
  private started = 0;
  private readers = 0;
  private disposed = false;
  private readonly baseId: string;
  private readonly sink: RowSink;

  constructor(baseId: string, sink: RowSink) {
    this.baseId = baseId;
    this.sink = sink;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Queues the rows the grid holds; others are read with their pages. */
  queue(rowIds: Iterable<string>): void {
    for (const id of rowIds) if (this.sink.has(id)) this.queued.add(id);
    if (this.queued.size === 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startReaders();
    }, COALESCE_MS);
  }

  // One pool for every change: with a pool per round of changes, rounds overlapped while changes
  // came faster than the server answered, and rows were read up to ten times over, long after the
  // changes stopped (bench:ui). Every reader running is waiting for an answer, so each queued row
  // may start a new one.
  private startReaders(): void {
    for (let n = 0; n < this.queued.size && this.readers < CONCURRENCY && !this.disposed; n++) {
      this.readers++;
      void this.readQueued().finally(() => this.readers--);
    }
  }

  private async readQueued(): Promise<void> {
    for (let id = first(this.queued); id !== undefined && !this.disposed; id = first(this.queued)) {
      this.queued.delete(id);
      const mine = ++this.started;
      this.latest.set(id, mine);
      try {
        const row = await api<RowRecord>(`${basePath(this.baseId)}/rows/${encodeURIComponent(id)}?expand=true`);
        if (this.latest.get(id) === mine) this.sink.updated([row]);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404 && this.latest.get(id) === mine) this.sink.gone([id]);
      } finally {
        if (this.latest.get(id) === mine) this.latest.delete(id);
      }
    }
  }
}

const first = (set: Set<string>): string | undefined => set.values().next().value;
