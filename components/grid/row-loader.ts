import { api, ApiError, basePath, errorMessage } from "../data/api";
import type { RowRecord, RowsPage } from "../data/types";
import type { RowStore } from "./row-store";

// Fills a RowStore from the paged rows API and keeps it current as change events arrive.
// A small first page paints the grid at once; larger pages follow in the background. Rows are
// ordered by insertion and cursors are positions in that order, so rows added later are found
// by re-reading from the start of the last page. With a query (filter, sort, search) the pages
// come from Query Rows instead, whose keyset cursors behave the same way.

const FIRST_PAGE = 300;
const PAGE = 5_000;
/** While a large base loads, new rows reach the table at most this often (each costs a model rebuild). */
const FLUSH_MS = 1_200;
const REFRESH_CONCURRENCY = 6;

export class RowLoader {
  /** The cursor each loaded page started at (undefined: the first page). */
  private pageStarts: (string | undefined)[] = [];
  private chain: Promise<void> = Promise.resolve();
  private generation = 0;
  private tailQueued = false;
  private refreshQueue = new Set<string>();
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  /** Per row, the latest refetch started: an answer that an older refetch brings late is dropped. */
  private latestFetch = new Map<string, number>();
  private fetches = 0;
  /** Page reads in flight (a load or a tail read), and the rows changed while any was. */
  private pageReads = 0;
  private changedDuringRead = new Set<string>();

  private readonly baseId: string;
  private readonly store: RowStore;
  private readonly onError: (message: string) => void;
  private readonly query: object | null;

  constructor(baseId: string, store: RowStore, onError: (message: string) => void = () => {}, query: object | null = null) {
    this.baseId = baseId;
    this.store = store;
    this.onError = onError;
    this.query = query;
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
  }

  /**
   * Loads every row, page by page. Later loads wait for earlier ones (one at a time). `swap`
   * keeps the rows of an earlier query on screen until this one's first page replaces them.
   */
  start(swap = false): Promise<void> {
    return this.enqueue(() => this.loadAll(false, swap));
  }

  /** Reloads everything (after a reset or a rename); the old rows stay visible meanwhile. */
  reload(): Promise<void> {
    return this.enqueue(() => this.loadAll(true));
  }

  /** New rows were added somewhere: read on from the start of the last page. */
  fetchTail(): void {
    if (this.tailQueued) return;
    this.tailQueued = true;
    void this.enqueue(async () => {
      this.tailQueued = false;
      await this.readTail();
    });
  }

  /** Refetches rows whose cells changed, coalescing bursts of events into one round. */
  refresh(rowIds: Iterable<string>): void {
    for (const id of rowIds) {
      // A page read before this change may still land with the older row: fetch it again then.
      if (this.pageReads > 0) this.changedDuringRead.add(id);
      if (this.store.has(id)) this.refreshQueue.add(id);
    }
    if (this.refreshQueue.size === 0 || this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      void this.flushRefresh();
    }, 120);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One page; the first page of a query also counts the matching rows. */
  private page(limit: number, cursor: string | undefined): Promise<RowsPage> {
    if (this.query) {
      const body = { ...this.query, limit, cursor: cursor ?? null, expand: true, count: cursor === undefined };
      return api<RowsPage>(`${basePath(this.baseId)}/rows/query`, { body });
    }
    return api<RowsPage>(`${basePath(this.baseId)}/rows?expand=true&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
  }

  /** Runs a read of pages; rows changed meanwhile are fetched again once it has written them. */
  private async readingPages(read: () => Promise<void>): Promise<void> {
    this.pageReads++;
    try {
      await read();
    } finally {
      this.pageReads--;
      const changed = [...this.changedDuringRead];
      if (this.pageReads === 0) this.changedDuringRead.clear();
      this.refresh(changed);
    }
  }

  private loadAll(replace: boolean, swap = false): Promise<void> {
    return this.readingPages(() => this.loadPages(replace, swap));
  }

  private async loadPages(replace: boolean, swap: boolean): Promise<void> {
    const gen = ++this.generation;
    this.store.setLoadState({ phase: "loading", error: null, loaded: replace ? this.store.size : 0, total: null });
    const starts: (string | undefined)[] = [];
    const buffer: RowRecord[] = [];
    let cursor: string | undefined;
    let limit = replace ? PAGE : FIRST_PAGE;
    let pending: RowRecord[] = [];
    let flushedAt = 0;
    const flush = () => {
      if (swap) this.store.replaceAll(pending);
      else if (pending.length) this.store.append(pending);
      swap = false;
      pending = [];
      flushedAt = Date.now();
    };
    try {
      for (;;) {
        const page = await this.page(limit, cursor);
        if (gen !== this.generation) return;
        if (typeof page.total === "number") this.store.setLoadState({ total: page.total });
        starts.push(cursor);
        if (replace) buffer.push(...page.rows);
        else {
          for (const r of page.rows) pending.push(r);
          if (swap || Date.now() - flushedAt >= FLUSH_MS) flush();
        }
        this.store.setLoadState({ loaded: replace ? buffer.length : this.store.size + pending.length });
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
        limit = PAGE;
      }
      if (replace) this.store.replaceAll(buffer);
      else flush();
      this.pageStarts = starts;
      this.store.setLoadState({ phase: "done", loaded: this.store.size });
    } catch (e) {
      if (gen !== this.generation) return;
      this.store.setLoadState({ phase: "error", error: errorMessage(e) });
      this.onError(`Could not load the rows: ${errorMessage(e)}`);
    }
  }

  private readTail(): Promise<void> {
    return this.readingPages(() => this.readTailPages());
  }

  private async readTailPages(): Promise<void> {
    if (this.store.getLoadState().phase !== "done") return;
    const gen = this.generation;
    let index = Math.max(0, this.pageStarts.length - 1);
    let cursor = this.pageStarts[index];
    try {
      for (;;) {
        const page = await this.page(PAGE, cursor);
        if (gen !== this.generation || this.disposed) return;
        this.pageStarts[index] = cursor;
        this.store.append(page.rows);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
        index++;
      }
      this.pageStarts.length = index + 1;
      this.store.setLoadState({ loaded: this.store.size });
    } catch (e) {
      this.onError(`Could not load new rows: ${errorMessage(e)}`);
    }
  }

  private async flushRefresh(): Promise<void> {
    const ids = [...this.refreshQueue];
    this.refreshQueue.clear();
    const gone: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < ids.length && !this.disposed) {
        const id = ids[next++];
        const fetch = ++this.fetches;
        this.latestFetch.set(id, fetch);
        try {
          const row = await api<RowRecord>(`${basePath(this.baseId)}/rows/${encodeURIComponent(id)}?expand=true`);
          if (this.latestFetch.get(id) === fetch) this.store.upsertExisting([row]);
        } catch (e) {
          if (e instanceof ApiError && e.status === 404 && this.latestFetch.get(id) === fetch) gone.push(id);
        } finally {
          if (this.latestFetch.get(id) === fetch) this.latestFetch.delete(id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(REFRESH_CONCURRENCY, ids.length) }, worker));
    if (gone.length) this.store.remove(gone);
  }
}
