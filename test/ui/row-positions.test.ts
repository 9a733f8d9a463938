import { describe, expect, it } from "vitest";
import { RowStore } from "../../components/grid/data/row-store.ts";
import { readPlan, subtract, type Range } from "../../components/grid/data/read-plan.ts";
import type { RowRecord } from "../../components/data/types.ts";

// The grid's rows by position: a 100,000-row base is read where the viewport is first, the rest
// in the background, and rows that moved meanwhile (added or deleted before them) are reconciled.

const row = (id: string, value = id): RowRecord => ({ id, processing: false, cells: { Name: { value } } });
const rows = (from: number, to: number, prefix = "r") =>
  Array.from({ length: to - from }, (_, i) => row(`${prefix}${from + i}`));
const ids = (store: RowStore) => Array.from({ length: store.total }, (_, i) => store.idAt(i) ?? null);

describe("RowStore positions", () => {
  it("holds rows at positions, with the positions not read yet as gaps", () => {
    const store = new RowStore();
    store.reset(10, 4, rows(4, 6));
    expect(store.total).toBe(10);
    expect(store.size).toBe(2);
    expect([...store.gaps(0, 10)]).toEqual([
      [0, 4],
      [6, 10],
    ]);
    store.fill(0, rows(0, 2));
    expect([...store.gaps(0, 10)]).toEqual([
      [2, 4],
      [6, 10],
    ]);
    expect(store.getHandles().map((h) => h.id)).toEqual(["r0", "r1", "r4", "r5"]);
    expect(store.positionOf("r5")).toBe(5);
  });

  it("moves a row read at a new position and forgets the row it displaces", () => {
    const store = new RowStore();
    store.reset(6, 0, rows(0, 6));
    // r2 was deleted elsewhere: a read at 2 now finds r3, r4.
    store.fill(2, [row("r3"), row("r4")]);
    expect(ids(store)).toEqual(["r0", "r1", "r3", "r4", null, "r5"]);
    expect(store.has("r2")).toBe(false);
    expect(store.getHandles().map((h) => h.id)).toEqual(["r0", "r1", "r3", "r4", "r5"]);
  });

  it("keeps handles through a reset, so that a selection by handle survives a reload", () => {
    const store = new RowStore();
    store.reset(3, 0, rows(0, 3));
    const before = store.getHandles()[1];
    store.reset(5, 1, rows(1, 3));
    expect(store.getHandles()[0]).toBe(before);
    expect(store.has("r0")).toBe(false);
  });

  it("removes loaded rows by closing their positions, and counts the ids it did not hold", () => {
    const store = new RowStore();
    store.reset(8, 0, rows(0, 3));
    store.fill(6, rows(6, 8));
    expect(store.remove(["r1", "r7", "elsewhere"])).toBe(1);
    expect(ids(store)).toEqual(["r0", "r2", null, null, null, "r6"]);
    expect(store.positionOf("r6")).toBe(5);
  });

  it("grows and shrinks with the count, and appends new rows at the end", () => {
    const store = new RowStore();
    store.reset(4, 0, rows(0, 4));
    store.setTotal(6);
    expect([...store.gaps(0, 6)]).toEqual([[4, 6]]);
    store.setTotal(3);
    expect(ids(store)).toEqual(["r0", "r1", "r2"]);
    expect(store.has("r3")).toBe(false);
    store.append([row("r1", "changed"), row("new")]);
    expect(ids(store)).toEqual(["r0", "r1", "r2", "new"]);
    expect(store.get("r1")?.cells.Name.value).toBe("changed");
  });

  it("gives the table a new list only when rows are added, removed or moved", () => {
    const store = new RowStore();
    store.reset(4, 0, rows(0, 2));
    const list = store.getHandles();
    store.fill(0, [row("r0", "new value")]);
    expect(store.getHandles()).toBe(list);
    store.fill(2, rows(2, 3));
    expect(store.getHandles()).not.toBe(list);
  });
});

const positions = (total: number, loaded: Range[]) => {
  const store = new RowStore();
  store.reset(total, 0, []);
  for (const [a, b] of loaded) store.fill(a, rows(a, b));
  return store;
};

describe("readPlan", () => {
  it("reads the rows in view first, in a page about two screens long", () => {
    const store = positions(100_000, [[0, 300]]);
    expect(readPlan(store, { start: 50_000, end: 50_025, rowsPerSecond: 0 }, [], 150, 1_000)).toEqual({
      range: [50_000, 50_050],
      background: false,
    });
  });

  it("scrolling fast, reads where the scroll will be when the read answers, and on along its path, in long pages", () => {
    const store = positions(100_000, [[0, 300]]);
    const view = { start: 50_000, end: 50_025, rowsPerSecond: 10_000 };
    // 10,000 rows a second and reads of 100 ms: 1,000 rows on, pages of 2,000 (two reads' worth).
    expect(readPlan(store, view, [], 100, 1_000)).toEqual({ range: [51_000, 53_000], background: false });
    expect(readPlan(store, view, [[51_000, 53_000]], 100, 1_000)).toEqual({
      range: [53_000, 55_000],
      background: false,
    });
    // Half a second of the path is read ahead; the rows around the view come after it.
    expect(readPlan(store, view, [[51_000, 56_025]], 100, 1_000)).toEqual({
      range: [49_975, 51_000],
      background: false,
    });
  });

  it("reads upwards from the end of the gap when scrolling up", () => {
    const store = positions(100_000, [[0, 300]]);
    expect(readPlan(store, { start: 5_000, end: 5_025, rowsPerSecond: -10 }, [], 150, 0)).toEqual({
      range: [4_975, 5_025],
      background: false,
    });
  });

  it("skips rows already being read, and fills from the top only once the view is loaded", () => {
    const store = positions(10_000, [[0, 300]]);
    const view = { start: 5_000, end: 5_025, rowsPerSecond: 0 };
    expect(readPlan(store, view, [[4_975, 5_050]], 150, 0)).toBeNull();
    expect(readPlan(store, view, [[4_975, 5_050]], 150, 1_000)).toEqual({ range: [300, 1_300], background: true });
    expect(
      readPlan(
        store,
        view,
        [
          [4_975, 5_050],
          [300, 1_300],
        ],
        150,
        1_000,
      ),
    ).toEqual({ range: [1_300, 2_300], background: true });
  });

  it("is done when every position holds its row", () => {
    const store = positions(500, [[0, 500]]);
    expect(readPlan(store, { start: 0, end: 25, rowsPerSecond: 0 }, [], 150, 1_000)).toBeNull();
  });

  it("subtracts covered ranges", () => {
    expect(
      subtract(
        [0, 10],
        [
          [2, 4],
          [8, 20],
        ],
      ),
    ).toEqual([
      [0, 2],
      [4, 8],
    ]);
    expect(subtract([0, 10], [[0, 10]])).toEqual([]);
  });
});
