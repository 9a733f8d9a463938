import { describe, expect, it } from "vitest";
import { RowStore } from "../../components/grid/data/row-store.ts";
import { modelBuild as build, modelLags } from "../../components/grid/table/table-model-build.ts";
import type { RowRecord } from "../../components/data/types.ts";

// While rows load, the table model (selection, keyboard moves) is rebuilt only when it lags the
// store where the user could notice: a row it holds is gone, or a row in view is missing from it.

const row = (id: string): RowRecord => ({ id, processing: false, cells: { Name: { value: id } } });
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => row(`r${from + i}`));
const view = { start: 0, end: 10, rowsPerSecond: 0 };

describe("modelLags", () => {
  it("does not lag for rows read out of view", () => {
    const store = new RowStore();
    store.reset(1_000, 0, rows(0, 10));
    const model = build(store);
    store.fill(500, rows(500, 600));
    expect(modelLags(store, model, view)).toBe(false);
  });

  it("lags when a row read in view is missing from it", () => {
    const store = new RowStore();
    store.reset(1_000, 0, rows(0, 5));
    const model = build(store);
    store.fill(5, rows(5, 10));
    expect(modelLags(store, model, view)).toBe(true);
  });

  it("lags when a row it holds was deleted elsewhere, in view or not", () => {
    const store = new RowStore();
    store.reset(1_000, 0, rows(0, 10));
    store.fill(500, rows(500, 510));
    const model = build(store);
    store.remove(["r505"]);
    expect(modelLags(store, model, view)).toBe(true);
    expect(modelLags(store, build(store), view)).toBe(false);
  });

  it("lags when a read finds a row displaced (deleted elsewhere before it was removed here)", () => {
    const store = new RowStore();
    store.reset(1_000, 0, rows(0, 10));
    store.fill(500, rows(500, 510));
    const model = build(store);
    // r502 was deleted: a read at 502 finds r503 on; the displaced row leaves the store.
    store.fill(502, rows(503, 511));
    expect(store.has("r502")).toBe(false);
    expect(modelLags(store, model, view)).toBe(true);
  });
});
