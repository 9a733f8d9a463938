import { describe, expect, it } from "vitest";
import type { Positions, Range, Viewport } from "../../components/grid/data/read-plan.ts";
import { READ_LIMITS, ReadSchedule, type ScheduledRead } from "../../components/grid/data/read-schedule.ts";
import type { RowRecord } from "../../components/data/types.ts";

// The grid's read schedule (RowLoader does the I/O): which page comes when, how many at once,
// which answers may still be written, and how a failure pauses the reads.

/** Positions of a base of `total` rows where the `loaded` ranges are in. */
function positions(total: number, ...loaded: Range[]): Positions & { load(r: Range): void } {
  const held = new Array<boolean>(total).fill(false);
  const load = ([a, b]: Range) => held.fill(true, a, b);
  loaded.forEach(load);
  return {
    total,
    load,
    *gaps(from, to) {
      const end = Math.min(to, total);
      for (let i = Math.max(0, from); i < end; i++) {
        if (held[i]) continue;
        const start = i;
        while (i < end && !held[i]) i++;
        yield [start, i];
      }
    },
  };
}

const still = (start: number, end = start + 60): Viewport => ({ start, end, rowsPerSecond: 0 });
const rows = (n: number): RowRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: `r${i}`, processing: false, cells: {} }));

/** A schedule whose first page (0 to 300 of `total`) is in, the view at the top. */
function opened(total = 100_000) {
  const s = new ReadSchedule();
  const first = s.begin(0)!;
  expect(s.opened(first.gen)).toBe(true);
  return { s, at: positions(total, [0, READ_LIMITS.firstPage]) };
}

describe("ReadSchedule", () => {
  it("sizes the first page to twice the view (300 at least) and starts it a quarter above the view", () => {
    const s = new ReadSchedule();
    expect(s.begin(0)).toEqual({ gen: 1, offset: 0, limit: 300 });
    s.setViewport(still(1_000, 1_100));
    // Nothing counted yet: from the top.
    expect(s.begin(0)).toEqual({ gen: 2, offset: 0, limit: 300 });
    expect(s.begin(5_000)).toEqual({ gen: 3, offset: 925, limit: 300 });
    s.setViewport(still(1_000, 1_400));
    expect(s.begin(5_000)).toEqual({ gen: 4, offset: 800, limit: 800 });
    // Kept inside the rows known.
    s.setViewport(still(4_900, 4_960));
    expect(s.begin(5_000)).toEqual({ gen: 5, offset: 4_700, limit: 300 });
  });

  it("starts no read before the first page is in", () => {
    const s = new ReadSchedule();
    const first = s.begin(0)!;
    const at = positions(10_000);
    expect(s.running).toBe(false);
    expect(s.next(at)).toBeNull();
    expect(s.opened(first.gen - 1)).toBe(false);
    expect(s.opened(first.gen)).toBe(true);
    expect(s.next(at)).not.toBeNull();
  });

  it("keeps at most two reads for the view in flight", () => {
    const { s, at } = opened();
    // Scrolling fast: the reads go ahead along the path, in pages of up to 2,000 rows.
    s.setViewport({ start: 50_000, end: 50_060, rowsPerSecond: 20_000, scrolling: true });
    const a = s.next(at)!;
    const b = s.next(at)!;
    expect([a.range, a.background, b.range, b.background]).toEqual([[53_000, 55_000], false, [55_000, 57_000], false]);
    expect(s.next(at)).toBeNull();
    expect(s.ended(a)).toBe(true);
    expect(s.next(at)!.range).toEqual([57_000, 59_000]);
    expect(s.next(at)).toBeNull();
  });

  it("reads the background only while the grid is still and no read for the view runs", () => {
    const { s, at } = opened();
    s.setViewport({ ...still(0), scrolling: true });
    expect(s.next(at)).toBeNull();
    s.setViewport(still(40_000));
    const view = s.next(at)!;
    expect(view.background).toBe(false);
    s.setViewport(still(0));
    expect(s.next(at)).toBeNull();
    s.ended(view);
    expect(s.next(at)).toMatchObject({ range: [300, 1_300], background: true });
    // One background page at a time.
    expect(s.next(at)).toBeNull();
  });

  it("doubles the background page up to its maximum, and starts small again after a read for the view", () => {
    const { s, at } = opened();
    const sizes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const read = s.next(at)!;
      expect(read.background).toBe(true);
      sizes.push(read.range[1] - read.range[0]);
      s.ended(read);
    }
    expect(sizes).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
    s.setViewport(still(80_000));
    s.ended(s.next(at)!);
    s.setViewport(still(0));
    const read = s.next(at)!;
    expect([read.background, read.range[1] - read.range[0]]).toEqual([true, 1_000]);
  });

  it("drops the answers of an earlier generation and does not count its reads", () => {
    const { s, at } = opened();
    s.setViewport(still(50_000));
    const old = s.next(at)!;
    const next = s.begin(100_000)!;
    expect(s.current(old.gen)).toBe(false);
    expect(s.current(next.gen)).toBe(true);
    expect(s.landed(old, rows(120), "cursor", 10, 0)).toBe(false);
    expect(s.flush(0)).toEqual([]);
    expect(s.ended(old)).toBe(false);
    expect(s.failed(old)).toBe(false);
    expect(s.resume(old.gen)).toBe(false);
    expect(s.next(at)).toBeNull();
    s.opened(next.gen);
    // Neither the old read in flight nor its range holds back the new generation.
    s.setViewport({ start: 50_000, end: 50_060, rowsPerSecond: 20_000 });
    expect(s.next(at)).not.toBeNull();
    expect(s.next(at)).not.toBeNull();
  });

  it("reads on by the cursor of the page that ended where a read starts, once, keeping 32 cursors", () => {
    const { s, at } = opened();
    s.setViewport({ start: 50_000, end: 50_060, rowsPerSecond: 20_000, scrolling: true });
    const a = s.next(at)!;
    expect(s.cursorFor(a)).toBeUndefined();
    s.landed(a, rows(2_000), "after-a", 100, 0);
    s.ended(a);
    at.load(a.range);
    s.flush(0);
    // Reads slightly faster now, so a little less far ahead: [52,700, 53,000) first, then on from a's end.
    expect(s.next(at)!.range).toEqual([52_700, 53_000]);
    const c = s.next(at)!;
    expect(c.range).toEqual([55_000, 57_000]);
    expect(s.cursorFor(c)).toBe("after-a");
    expect(s.cursorFor(c)).toBeUndefined();
    const gen = s.generation;
    const read = (from: number): ScheduledRead => ({ gen, range: [from, from + 10], background: true });
    for (let i = 0; i <= READ_LIMITS.onwardKept; i++) s.landed(read(i * 10), rows(10), `c${i}`, 0, 0);
    // 33 cursors: the oldest is gone; the cursor of each other page is handed out once.
    expect(s.cursorFor(read(10))).toBeUndefined();
    expect(s.cursorFor(read(20))).toBe("c1");
    expect(s.cursorFor(read(20))).toBeUndefined();
    expect(s.cursorFor(read(330))).toBe("c32");
    // A page with no next cursor (the last) leaves none.
    s.landed(read(1_000), rows(10), null, 0, 0);
    expect(s.cursorFor(read(1_010))).toBeUndefined();
  });

  it("gives the view's reads at once and the background's at most every 1.2 s, in order", () => {
    const { s, at } = opened();
    const bg = s.next(at)!;
    expect(s.landed(bg, rows(1_000), null, 0, 1_000)).toBe(false);
    s.ended(bg);
    const bg2 = s.next(at)!;
    expect(s.landed(bg2, rows(2_000), null, 0, READ_LIMITS.flushMs)).toBe(true);
    expect(s.flush(READ_LIMITS.flushMs).map((p) => p.range)).toEqual([bg.range, bg2.range]);
    s.ended(bg2);
    const bg3 = s.next(at)!;
    expect(s.landed(bg3, rows(4_000), null, 0, READ_LIMITS.flushMs + 500)).toBe(false);
    s.setViewport(still(90_000));
    const view = s.next(at)!;
    expect(s.landed(view, rows(120), null, 0, READ_LIMITS.flushMs + 600)).toBe(true);
    // Flushed ranges are no longer covered: what they left missing may be asked for again.
    expect(s.flush(0).map((p) => p.range)).toEqual([bg3.range, view.range]);
    s.ended(view);
    expect(s.next(at)!.range).toEqual(view.range);
  });

  it("reads as far ahead of a moving view as reads took lately", () => {
    const { s, at } = opened();
    s.setViewport(still(40_000));
    const slow = s.next(at)!;
    // 0.7 × 150 + 0.3 × 1,150 = 450 ms.
    s.landed(slow, rows(120), null, 1_150, 0);
    s.ended(slow);
    s.setViewport({ start: 60_000, end: 60_060, rowsPerSecond: 1_000 });
    expect(s.next(at)!.range[0]).toBe(60_450);
  });

  it("pauses every read after a failure and goes on where it failed once resumed; the tail waits too", () => {
    const { s, at } = opened();
    s.setViewport(still(50_000));
    const read = s.next(at)!;
    expect(s.failed(read)).toBe(true);
    expect(s.ended(read)).toBe(true);
    expect(s.running).toBe(false);
    expect(s.next(at)).toBeNull();
    expect(s.tail()).toBeNull();
    expect(s.tailWaiting).toBe(true);
    expect(s.resume(s.generation - 1)).toBe(false);
    expect(s.resume(s.generation)).toBe(true);
    expect(s.next(at)!.range).toEqual(read.range);
    expect(s.tail()).toEqual({ gen: s.generation, limit: READ_LIMITS.backgroundFirst });
    expect(s.tailWaiting).toBe(false);
    expect(s.tailFailed(s.generation)).toBe(true);
    expect(s.tailWaiting).toBe(true);
  });

  it("answers nothing once stopped", () => {
    const { s, at } = opened();
    const gen = s.generation;
    s.stop();
    expect(s.stopped).toBe(true);
    expect(s.current(gen)).toBe(false);
    expect(s.next(at)).toBeNull();
    expect(s.begin(0)).toBeNull();
  });
});
