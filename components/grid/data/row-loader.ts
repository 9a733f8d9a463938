import { api, basePath, errorMessage } from "../../data/api";
import type { CellView, RowRecord, RowsPage } from "../../data/types";
import type { RowStore } from "./row-store";
import type { Viewport } from "./read-plan";
import { ReadSchedule, type ScheduledRead } from "./read-schedule";
import { PageReads } from "./page-reads";
import { ReadRetry } from "./read-retry";

// Fills a RowStore from Query Rows and keeps it current as change events and the grid's own
// writes arrive. It is the store's only writer (test/unit/row-store-writers.test.ts): actions,
// live events and review mode call its methods, and the rows read again after a change reach the
// store through the sink it hands to its page reads. The first page is read where the viewport is
// and counts the rows, so the grid has its full height at once. After it, the rows in view and
// those the scroll is heading for are read first, by offset; the rest of the base follows in the
// background, a page at a time, while nothing in view is missing and the grid is still. Which
// read comes when is read-schedule.ts; this class does the reading and the writing.

/** Many changed rows are cheaper to read again in pages (a reload) than one by one. */
export const MAX_ROW_REFETCH = 200;

export class RowLoader {
  private chain: Promise<void> = Promise.resolve();
  private readonly schedule = new ReadSchedule();
  private readonly retry = new ReadRetry();
  private tailQueued = false;

  private readonly baseId: string;
  private readonly store: RowStore;
  private readonly onError: (message: string) => void;
  private readonly query: object;
  private readonly pageReads: PageReads;

  constructor(
    baseId: string,
    store: RowStore,
    onError: (message: string) => void = () => {},
    query: object | null = null,
  ) {
    this.baseId = baseId;
    this.store = store;
    this.onError = onError;
    this.query = query ?? {};
    // A row read again after a change is written here too: the refetcher holds no store.
    this.pageReads = new PageReads(baseId, {
      has: (id) => store.has(id),
      updated: (rows) => store.upsertExisting(rows),
      // Rows the store held when they were queued: a position gone already needs no reload.
      gone: (ids) => void store.remove(ids),
    });
  }

  dispose(): void {
    this.schedule.stop();
    this.pageReads.dispose();
    this.retry.cancel();
  }

  /**
   * Reads from scratch (the first load, a new query, a reset or a rename): the first page where
   * the viewport is, which replaces what the store held, then the rest.
   */
  reload(): Promise<void> {
    this.retry.reset();
    return this.enqueue(() => this.begin());
  }

  /** Where the grid is and how fast it moves (rows a second, negative upwards). */
  setViewport(view: Viewport): void {
    this.schedule.setViewport(view);
    this.pump();
  }

  /** New rows were added somewhere: count again and read the end. */
  fetchTail(): void {
    if (this.tailQueued) return;
    this.tailQueued = true;
    void this.enqueue(async () => {
      this.tailQueued = false;
      await this.pageReads.run(() => this.readTail());
    });
  }

  /** Rows deleted; a row not loaded leaves an unknown position, so the rest is read again. */
  removed(rowIds: string[]): void {
    const unknown = this.store.remove(rowIds);
    if (unknown > 0 && this.store.size < this.store.total) void this.reload();
  }

  /** Rows as a write answered them, expanded (Update Rows): the loaded ones take their new state. */
  applyWrite(rows: RowRecord[]): void {
    if (rows.length) this.store.upsertExisting(rows);
  }

  /** Rows this grid added, expanded as Add Rows answered: they go to the end, where they were added. */
  appended(rows: RowRecord[]): void {
    if (rows.length) this.store.append(rows);
  }

  /** A change to one cell that an event or an answer told before the row is read again. */
  patchCell(rowId: string, column: string, patch: Partial<CellView>): void {
    this.store.patchCell(rowId, column, patch);
  }

  /**
   * The live stream is connected. A page read before it was may hold a cell that finished before
   * the stream could say so: once the reads in flight land, the rows with busy AI cells are read
   * again (all of them, by a reload, when there are many).
   */
  streamReady(): void {
    void this.pageReads.settled().then(() => {
      if (this.schedule.stopped) return;
      const busy = this.store.processingIds();
      if (busy.length > MAX_ROW_REFETCH) void this.reload();
      else this.refresh(busy);
    });
  }

  /** Refetches rows whose cells changed. */
  refresh(rowIds: Iterable<string>): void {
    this.pageReads.refresh(rowIds);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One page at a position (or after a cursor); `count` adds the number of matching rows. */
  private page(limit: number, at: { offset?: number; cursor?: string }, count = false): Promise<RowsPage> {
    const body = {
      ...this.query,
      limit,
      expand: true,
      count,
      ...(at.cursor ? { cursor: at.cursor } : { offset: at.offset ?? 0 }),
    };
    return api<RowsPage>(`${basePath(this.baseId)}/rows/query`, { body });
  }

  private async begin(): Promise<void> {
    const first = this.schedule.begin(this.store.total);
    if (!first) return;
    const { gen, offset, limit } = first;
    this.retry.cancel();
    this.store.setLoadState({ phase: "loading", error: null });
    try {
      await this.pageReads.run(async () => {
        const page = await this.page(limit, { offset }, true);
        if (!this.schedule.current(gen)) return;
        this.store.reset(page.total ?? offset + page.rows.length, offset, page.rows);
      });
    } catch (e) {
      // The first page failed: it is read again (a new generation), unless the failure is for good.
      const again = this.ifCurrent(gen, () => void this.enqueue(() => this.begin()));
      if (this.schedule.current(gen) && !this.retry.later(e, again)) this.failed(gen, e);
      return;
    }
    if (!this.schedule.opened(gen)) return;
    this.retry.reset();
    this.progress();
    this.pump();
  }

  /** Starts the reads the schedule asks for; called whenever one ends or the view moves. */
  private pump(): void {
    if (!this.schedule.running) return;
    for (let read = this.schedule.next(this.store); read; read = this.schedule.next(this.store))
      void this.readRange(read);
    this.progress();
  }

  private async readRange(read: ScheduledRead): Promise<void> {
    const began = performance.now();
    const [from, to] = read.range;
    try {
      await this.pageReads.run(async () => {
        const cursor = this.schedule.cursorFor(read);
        const page = await this.page(to - from, cursor ? { cursor } : { offset: from });
        if (!this.schedule.current(read.gen)) return;
        this.retry.reset();
        if (this.schedule.landed(read, page.rows, page.nextCursor, performance.now() - began, Date.now())) this.flush();
      });
    } catch (e) {
      if (this.schedule.failed(read)) this.paused(read.gen, e);
    } finally {
      if (this.schedule.ended(read)) this.pump();
    }
  }

  /** Writes the pages read so far into the store, in the order they were read. */
  private flush(): void {
    for (const { range, rows } of this.schedule.flush(Date.now())) this.store.fill(range[0], rows);
  }

  /** Loading until every position holds its row and nothing is in flight. */
  private progress(): void {
    const idle = this.schedule.idle;
    if (idle) this.flush();
    const done = idle && this.store.size >= this.store.total;
    this.store.setLoadState({ phase: done ? "done" : "loading", loaded: this.store.size, total: this.store.total });
  }

  /** A failed read pauses the reads until it is tried again (read-retry.ts says when, or never). */
  private paused(gen: number, e: unknown): void {
    const resume = () => {
      if (!this.schedule.resume(gen)) return;
      this.pump();
      if (this.schedule.tailWaiting) this.fetchTail();
    };
    if (!this.retry.later(e, resume)) this.failed(gen, e);
  }

  /** `fn`, unless the reads started over or stopped since generation `gen`. */
  private ifCurrent(gen: number, fn: () => void): () => void {
    return () => {
      if (this.schedule.current(gen)) fn();
    };
  }

  private failed(gen: number, e: unknown): void {
    if (!this.schedule.current(gen)) return;
    this.store.setLoadState({ phase: "error", error: errorMessage(e) });
    this.onError(`Could not load the rows: ${errorMessage(e)}`);
  }

  /** Counts again and reads from the last known row on, so rows added at the end appear. */
  private async readTail(): Promise<void> {
    const tail = this.schedule.tail();
    if (!tail) return;
    const { gen, limit } = tail;
    let offset = Math.max(0, this.store.total - 1);
    try {
      let page = await this.page(limit, { offset }, true);
      for (;;) {
        if (!this.schedule.current(gen)) return;
        if (page.total !== undefined) this.store.setTotal(page.total);
        this.store.fill(offset, page.rows);
        if (!page.nextCursor) break;
        offset += page.rows.length;
        page = await this.page(limit, { cursor: page.nextCursor });
      }
      this.retry.reset();
      this.pump();
    } catch (e) {
      // Tried again like any read: when a paused page read resumes, it reads the tail too.
      if (!this.schedule.tailFailed(gen)) return;
      if (
        !this.retry.later(
          e,
          this.ifCurrent(gen, () => this.fetchTail()),
        )
      ) {
        this.onError(`Could not load new rows: ${errorMessage(e)}`);
      }
    }
  }
}
