import type { RowRecord } from "../../data/types";
import { readPlan, type Positions, type Range, type Viewport } from "./read-plan";

// When the grid reads which rows, as state without I/O: RowLoader asks it what to read next and
// tells it what came back, and does the reading and the writing itself. Each start from scratch
// (a reload, a new query) is a generation; an answer of an earlier generation is not written.

export const READ_LIMITS = {
  /** The first page, read where the viewport is; it also counts the rows. */
  firstPage: 300,
  /** Background pages start small, so that a read for the view waits little behind one, then double. */
  backgroundFirst: 1_000,
  backgroundMax: 5_000,
  /** Rows read in the background reach the table at most this often (each costs a model rebuild). */
  flushMs: 1_200,
  /** Reads for the view in flight at once. */
  viewReads: 2,
  /** Cursors kept for pages that may be read on from where another ended. */
  onwardKept: 32,
};

export interface ScheduledRead {
  readonly gen: number;
  readonly range: Range;
  readonly background: boolean;
}

export interface ReadPage {
  range: Range;
  rows: RowRecord[];
}

export class ReadSchedule {
  private gen = 0;
  private isStopped = false;
  /** Set once the first page of this generation is in, cleared while a failed read waits. */
  private ready = false;
  private view: Viewport = { start: 0, end: 60, rowsPerSecond: 0 };
  /** Ranges being read, or read and waiting in `buffer`: not to be asked for again. */
  private covered: Range[] = [];
  private reads = 0;
  private backgroundReads = 0;
  private backgroundPage = READ_LIMITS.backgroundFirst;
  private buffer: ReadPage[] = [];
  /** Where recent pages ended, with the cursors that read on from there without an offset. */
  private onward = new Map<number, string>();
  private flushedAt = 0;
  /** How long a read took lately, which is how far ahead of a moving viewport to read. */
  private readMs = 150;
  /** Rows were added while the reads were paused: the tail is read once they resume. */
  private tailMissed = false;

  get generation(): number {
    return this.gen;
  }

  /** No page read of this generation is in flight. */
  get idle(): boolean {
    return this.reads === 0 && this.backgroundReads === 0;
  }

  /** Reads may start: the first page is in, no failed read waits, and the loader is not stopped. */
  get running(): boolean {
    return this.ready && !this.isStopped;
  }

  /** The tail was asked for while the reads were paused. */
  get tailWaiting(): boolean {
    return this.tailMissed;
  }

  /** The loader is disposed. */
  get stopped(): boolean {
    return this.isStopped;
  }

  /** Whether an answer of generation `gen` may still be written. */
  current(gen: number): boolean {
    return gen === this.gen && !this.isStopped;
  }

  /** No more reads: every answer in flight is stale from now on. */
  stop(): void {
    this.isStopped = true;
    this.gen++;
  }

  setViewport(view: Viewport): void {
    this.view = view;
  }

  /**
   * A new generation, and its first page: twice the view (at least `firstPage`), starting a
   * quarter of it above the view, kept inside the `total` rows known. Null once stopped.
   */
  begin(total: number): { gen: number; offset: number; limit: number } | null {
    if (this.isStopped) return null;
    const gen = ++this.gen;
    this.ready = false;
    this.covered = [];
    this.buffer = [];
    this.onward.clear();
    // Reads of an earlier generation still in flight are not counted: their answers are dropped.
    this.reads = this.backgroundReads = 0;
    this.backgroundPage = READ_LIMITS.backgroundFirst;
    this.tailMissed = false;
    const limit = Math.max(READ_LIMITS.firstPage, 2 * (this.view.end - this.view.start));
    const offset = Math.max(0, Math.min(this.view.start - (limit >> 2), total - limit));
    return { gen, offset, limit };
  }

  /** The first page of `gen` is written: reads around the viewport may start. */
  opened(gen: number): boolean {
    if (!this.current(gen)) return false;
    this.ready = true;
    return true;
  }

  /**
   * The next read to start, counted as started, or null: none may start, or nothing is missing.
   * At most `viewReads` reads for the view at once; the background reads only while nothing else
   * is read and the grid is still (a background page landing mid-scroll is a dropped frame).
   */
  next(rows: Positions): ScheduledRead | null {
    if (!this.running || this.reads >= READ_LIMITS.viewReads) return null;
    const background = this.idle && !this.view.scrolling ? this.backgroundPage : 0;
    const plan = readPlan(rows, this.view, this.covered, this.readMs, background);
    if (!plan) return null;
    this.covered.push(plan.range);
    if (plan.background) {
      this.backgroundReads++;
      this.backgroundPage = Math.min(READ_LIMITS.backgroundMax, 2 * this.backgroundPage);
    } else {
      this.reads++;
      this.backgroundPage = READ_LIMITS.backgroundFirst;
    }
    return { gen: this.gen, ...plan };
  }

  /**
   * The cursor that reads on from where an earlier page ended, when the read starts there: the
   * database walks past every row an offset skips. Each cursor serves one read.
   */
  cursorFor(read: ScheduledRead): string | undefined {
    if (!this.current(read.gen)) return undefined;
    const cursor = this.onward.get(read.range[0]);
    this.onward.delete(read.range[0]);
    return cursor;
  }

  /**
   * A read answered (of this generation: the caller asks `current` first). Its rows wait in the
   * buffer; answers true when the buffer is to be written now: at once for the view, at most
   * every `flushMs` for the background.
   */
  landed(read: ScheduledRead, rows: RowRecord[], nextCursor: string | null, elapsedMs: number, now: number): boolean {
    if (!this.current(read.gen)) return false;
    if (nextCursor) this.onward.set(read.range[0] + rows.length, nextCursor);
    if (this.onward.size > READ_LIMITS.onwardKept) this.onward.delete(this.onward.keys().next().value!);
    if (!read.background) this.readMs = 0.7 * this.readMs + 0.3 * elapsedMs;
    this.buffer.push({ range: read.range, rows });
    return !read.background || now - this.flushedAt >= READ_LIMITS.flushMs;
  }

  /** The pages to write now, in the order they were read; their ranges are no longer covered. */
  flush(now: number): ReadPage[] {
    const pages = this.buffer.splice(0);
    this.covered = this.covered.filter((r) => !pages.some((p) => p.range === r));
    this.flushedAt = now;
    return pages;
  }

  /** A read ended, answered or not; true when it was of this generation (more may start). */
  ended(read: ScheduledRead): boolean {
    if (!this.current(read.gen)) return false;
    if (read.background) this.backgroundReads--;
    else this.reads--;
    return true;
  }

  /** A read failed: the reads pause until `resume`. False when the read was stale. */
  failed(read: ScheduledRead): boolean {
    if (!this.current(read.gen)) return false;
    this.covered = this.covered.filter((r) => r !== read.range);
    this.ready = false;
    return true;
  }

  /** The reads paused by a failure of generation `gen` go on; false when it is stale. */
  resume(gen: number): boolean {
    if (!this.current(gen)) return false;
    this.ready = true;
    return true;
  }

  /** A read of the rows at the end may start (null while paused: it is read on resuming). */
  tail(): { gen: number; limit: number } | null {
    if (!this.running) {
      this.tailMissed = true;
      return null;
    }
    this.tailMissed = false;
    return { gen: this.gen, limit: READ_LIMITS.backgroundFirst };
  }

  /** The tail's read failed: it is read again when the reads resume. */
  tailFailed(gen: number): boolean {
    if (!this.current(gen)) return false;
    this.tailMissed = true;
    return true;
  }
}
