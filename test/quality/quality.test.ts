import { describe, expect, it } from "vitest";
import { expandedRows } from "../engine/helpers.ts";
import { app, base, columnPath, quality, rowOf, useReviewedColumn } from "./reviewed-column.ts";

// Column quality end to end: 40 reviewed cells with known confidences (reviewed-column.ts) give
// figures worked out by hand below. Evaluations of the same column: evaluations.test.ts.

useReviewedColumn();

describe("the quality of a column", () => {
  it("measures agreement, buckets, calibration error and the threshold from the review history", async () => {
    const q = await quality();
    expect(q).toMatchObject({
      columnId: base.col.Sector,
      reviewed: 40,
      accepted: 24,
      edited: 16,
      agreement: 0.6,
      calibrated: true,
      reviewThreshold: 0.7,
      reviewBy: "model",
    });
    expect(q.byConfidence).toEqual([
      { from: 0.2, to: 0.3, cells: 10, agreement: 0, confidence: 0.25 },
      { from: 0.5, to: 0.6, cells: 10, agreement: 0.5, confidence: 0.55 },
      { from: 0.8, to: 0.9, cells: 10, agreement: 0.9, confidence: 0.85 },
      { from: 0.9, to: 1, cells: 10, agreement: 1, confidence: 0.95 },
    ]);
    // ¼·|0 − 0.25| + ¼·|0.5 − 0.55| + ¼·|0.9 − 0.85| + ¼·|1 − 0.95| = ¼ · 0.4
    expect(q.expectedCalibrationError).toBe(0.1);
    // ≥ 0.25: 24/40; ≥ 0.55: 24/30 = 0.8; ≥ 0.85: 19/20 = 0.95, the first at 90%.
    expect(q.suggestedReviewThreshold).toBe(0.85);
    expect(q.errors).toEqual({ count: 2, byCode: expect.any(Object) });
    expect(Object.values(q.errors.byCode).reduce((a: number, b) => a + (b as number), 0)).toBe(2);
    // X0–X4 are done at 0.6, above 0.7? No: below it, and the two errors need review too.
    expect(q.needsReview).toBe(7);
  });

  it("gives cells a calibrated confidence from the isotonic fit", async () => {
    const byId = new Map((await expandedRows(app, base.baseId)).map((r) => [r.id, r.cells.Sector]));
    // The fit passes through (0.25, 0), (0.55, 0.5), (0.85, 0.9), (0.95, 1): the labels are already monotone.
    expect(byId.get(rowOf.C10)!.metadata).toMatchObject({ confidenceScore: 0.85, calibratedConfidence: 0.9 });
    expect(byId.get(rowOf.C30)!.metadata).toMatchObject({ confidenceScore: 0.25, calibratedConfidence: 0 });
    // 0.6 lies between 0.55 and 0.85: 0.5 + (0.05 / 0.3) · 0.4 = 0.5667.
    expect(byId.get(rowOf.X0)!.metadata).toMatchObject({ confidenceScore: 0.6, calibratedConfidence: 0.5667 });
  });

  it("applies the review threshold to the calibrated value with reviewBy calibrated", async () => {
    const setOptions = (columnOptions: object) => app.api("PATCH", columnPath(), { body: { columnOptions } });
    const needing = async () =>
      (
        await app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, {
          body: { filter: { column: "Sector", needsReview: true }, count: true },
        })
      ).body.total;
    expect((await setOptions({ reviewThreshold: 0.6 })).status).toBe(200);
    expect(await needing()).toBe(2); // 0.6 is not below 0.6: only the errors
    expect((await setOptions({ reviewThreshold: 0.6, reviewBy: "calibrated" })).status).toBe(200);
    expect(await needing()).toBe(7); // calibrated 0.5667 is below 0.6
    expect((await quality()).needsReview).toBe(7);
    const x0 = (await app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowOf.X0}?expand=true`)).body.cells.Sector;
    expect(x0.needsReview).toBe(true);
    expect((await setOptions({ reviewBy: "sometimes" })).body.error.code).toBe("validation_failed");
    await setOptions({});
  });

  it("refits when a review is undone", async () => {
    const history = (await app.api("GET", `/api/v1/bases/${base.baseId}/review`)).body.actions;
    const accept = history.find(
      (a: { rowId: string; action: string }) => a.rowId === rowOf.C00 && a.action === "accept",
    );
    expect((await app.api("POST", `/api/v1/bases/${base.baseId}/review/${accept.id}/undo`)).status).toBe(200);
    expect(await quality()).toMatchObject({ reviewed: 39, accepted: 23 });
    await app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
      body: { cells: [{ rowId: rowOf.C00, columnId: base.col.Sector, action: "accept" }] },
    });
    expect(await quality()).toMatchObject({ reviewed: 40, accepted: 24 });
  });
});
