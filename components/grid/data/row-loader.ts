import { api, basePath, errorMessage } from "../../data/api";
import type { RowRecord, RowsPage } from "../../data/types";
import type { RowStore } from "./row-store";
import { readPlan, type Range, type Viewport } from "./read-plan";
import { PageReads } from "./page-reads";
import { ReadRetry } from "./read-retry";

// Fills a RowStore from Query Rows and keeps it current as change events arrive. The first page
// is read where the viewport is and counts the rows, so the grid has its full height at once.
// After it, the rows in view and those the scroll is heading for are read first, by offset (see
// read-plan.ts); the rest of the base follows in the background, a page at a time, while nothing
// in view is missing and the grid is still. Rows changed while a page was read are read again.

const FIRST_PAGE = 300;
/** Background pages start small, so that a read for the view waits little behind one, then double. */
const BACKGROUND_PAGES = { first: 1_000, max: 5_000 };
/** Rows read in the background reach the table at most this often (each costs a model rebuild). */
const FLUSH_MS = 1_200;
const VIEW_READS = 2;
const ONWARD_KEPT = 32;
/** Many changed rows are cheaper to read again in pages (a reload) than one by one. */
export const MAX_ROW_REFETCH = 200;

export class RowLoader {
  private chain: Promise<void> = Promise.resolve();
  private generation = 0;
  /** Set once the first page of this generation is in: reads around the viewport may start. */
  private ready = false;
  private view: Viewport = { start: 0, end: 60, rowsPerSecond: 0 };
  /** Ranges being read, or read and waiting in `buffer`: not to be asked for again. */
  private covered: Range[] = [];
  private reads = 0;
  private backgroundReads = 0;
  private backgroundPage = BACKGROUND_PAGES.first;
  private buffer: { range: Range; rows: RowRecord[] }[] = [];
  /** Where recent pages ended, with the cursors that read on from there without an offset. */
  private onward = new Map<number, string>();
  private flushedAt = 0;
  /** How long a read took lately, which is how far ahead of a moving viewport to read. */
  private readMs = 150;
  private readonly retry = new ReadRetry();
  private tailQueued = false;
  /** Rows were added while the reads were paused: the tail is read once they resume. */
  private tailMissed = false;
  private disposed = false;

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
    this.pageReads = new PageReads(baseId, store);
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
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
    this.view = view;
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

  /** Rows deleted elsewhere; a row not loaded leaves an unknown position, so the rest is read again. */
  removed(rowIds: string[]): void {
    const unknown = this.store.remove(rowIds);
    if (unknown > 0 && this.store.size < this.store.total) void this.reload();
  }

  /**
   * The live stream is connected. A page read before it was may hold a cell that finished before
   * the stream could say so: once the reads in flight land, the rows with busy AI cells are read
   * again (all of them, by a reload, when there are many).
   */
  streamReady(): void {
    void this.pageReads.settled().then(() => {
      if (this.disposed) return;
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
    const gen = ++this.generation;
    this.ready = false;
    this.covered = [];
    this.buffer = [];
    this.onward.clear();
    // Reads of an earlier generation still in flight are not counted: their answers are dropped.
    this.reads = this.backgroundReads = 0;
    this.backgroundPage = BACKGROUND_PAGES.first;
    this.tailMissed = false;
    this.retry.cancel();
    this.store.setLoadState({ phase: "loading", error: null });
    const span = Math.max(FIRST_PAGE, 2 * (this.view.end - this.view.start));
    const offset = Math.max(0, Math.min(this.view.start - (span >> 2), this.store.total - span));
    try {
      await this.pageReads.run(async () => {
        const page = await this.page(span, { offset }, true);
        if (gen !== this.generation) return;
        this.store.reset(page.total ?? offset + page.rows.length, offset, page.rows);
      });
    } catch (e) {
      // The first page failed: it is read again (a new generation), unless the failure is for good.
      const again = this.ifCurrent(gen, () => void this.enqueue(() => this.begin()));
      if (gen === this.generation && !this.retry.later(e, again)) this.failed(gen, e);
      return;
    }
    if (gen !== this.generation) return;
    this.retry.reset();
    this.ready = true;
    this.progress();
    this.pump();
  }

  /** Starts the reads the plan asks for, up to the limits; called whenever one ends or the view moves. */
  private pump(): void {
    if (!this.ready || this.disposed) return;
    const gen = this.generation;
    for (;;) {
      // A background page landing is one long task of parsing and placing: a dropped frame mid-scroll.
      const background = this.reads > 0 || this.backgroundReads > 0 || this.view.scrolling ? 0 : this.backgroundPage;
      const next =
        this.reads < VIEW_READS ? readPlan(this.store, this.view, this.covered, this.readMs, background) : null;
      if (!next) break;
      this.covered.push(next.range);
      if (next.background) {
        this.backgroundReads++;
        this.backgroundPage = Math.min(BACKGROUND_PAGES.max, 2 * this.backgroundPage);
      } else {
        this.reads++;
        this.backgroundPage = BACKGROUND_PAGES.first;
      }
      void this.readRange(gen, next.range, next.background);
    }
    this.progress();
  }

  private async readRange(gen: number, range: Range, background: boolean): Promise<void> {
    const began = performance.now();
    try {
      await this.pageReads.run(async () => {
        // The database walks past every row an offset skips: a page that starts where another
        // ended reads on by that one's cursor.
        const cursor = this.onward.get(range[0]);
        this.onward.delete(range[0]);
        const page = await this.page(range[1] - range[0], cursor ? { cursor } : { offset: range[0] });
        if (gen !== this.generation) return;
        this.retry.reset();
        if (page.nextCursor) this.onward.set(range[0] + page.rows.length, page.nextCursor);
        if (this.onward.size > ONWARD_KEPT) this.onward.delete(this.onward.keys().next().value!);
        if (!background) this.readMs = 0.7 * this.readMs + 0.3 * (performance.now() - began);
        this.buffer.push({ range, rows: page.rows });
        if (!background || Date.now() - this.flushedAt >= FLUSH_MS) this.flush();
      });
    } catch (e) {
      if (gen === this.generation) this.failedRead(gen, range, e);
    } finally {
      if (gen === this.generation) {
        if (background) this.backgroundReads--;
        else this.reads--;
        this.pump();
      }
    }
  }

  /** Writes the pages read so far into the store, in the order they were read. */
  private flush(): void {
    for (const { range, rows } of this.buffer.splice(0)) {
      this.store.fill(range[0], rows);
      this.covered = this.covered.filter((r) => r !== range);
    }
    this.flushedAt = Date.now();
  }

  /** Loading until every position holds its row and nothing is in flight. */
  private progress(): void {
    const idle = this.reads === 0 && this.backgroundReads === 0;
    if (idle) this.flush();
    const done = idle && this.store.size >= this.store.total;
    this.store.setLoadState({ phase: done ? "done" : "loading", loaded: this.store.size, total: this.store.total });
  }

  /** A failed read pauses the reads until it is tried again (read-retry.ts says when, or never). */
  private failedRead(gen: number, range: Range, e: unknown): void {
    this.covered = this.covered.filter((r) => r !== range);
    this.ready = false;
    const resume = this.ifCurrent(gen, () => {
      this.ready = true;
      this.pump();
      if (this.tailMissed) this.fetchTail();
    });
    if (!this.retry.later(e, resume)) this.failed(gen, e);
  }

  /** `fn`, unless the reads started over or stopped since generation `gen`. */
  private ifCurrent(gen: number, fn: () => void): () => void {
    return () => {
      if (gen === this.generation && !this.disposed) fn();
    };
  }

  private failed(gen: number, e: unknown): void {
    if (gen !== this.generation) return;
    this.store.setLoadState({ phase: "error", error: errorMessage(e) });
    this.onError(`Could not load the rows: ${errorMessage(e)}`);
  }

  /** Counts again and reads from the last known row on, so rows added at the end appear. */
  private async readTail(): Promise<void> {
    if (!this.ready) return void (this.tailMissed = true);
    this.tailMissed = false;
    const gen = this.generation;
    let offset = Math.max(0, this.store.total - 1);
    try {
      let page = await this.page(BACKGROUND_PAGES.first, { offset }, true);
      for (;;) {
        if (gen !== this.generation || this.disposed) return;
        if (page.total !== undefined) this.store.setTotal(page.total);
        this.store.fill(offset, page.rows);
        if (!page.nextCursor) break;
        offset += page.rows.length;
        page = await this.page(BACKGROUND_PAGES.first, { cursor: page.nextCursor });
      }
      this.retry.reset();
      this.pump();
    } catch (e) {
      if (gen !== this.generation || this.disposed) return;
      // Tried again like any read: when a paused page read resumes, it reads the tail too.
      this.tailMissed = true;
      if (
        !this.retry.later(
          e,
          this.ifCurrent(gen, () => this.fetchTail()),
        )
      )
        this.onError(`Could not load new rows: ${errorMessage(e)}`);
    }
  }
}
