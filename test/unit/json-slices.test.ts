import { describe, expect, it } from "vitest";
import { jsonInSlices } from "../../lib/http/json-slices.ts";

// An answer written in slices is the same text JSON.stringify writes.
describe("jsonInSlices", () => {
  it("writes a long array field as JSON.stringify does, with the other fields in their order", async () => {
    const rows = Array.from({ length: 2_345 }, (_, i) => ({ id: `r${i}`, cells: { a: `x "${i}" é\n`, n: i } }));
    const data = {
      first: 1,
      rows,
      skipped: undefined,
      errors: [],
      nothing: null,
      holes: Array.from({ length: 600 }, (_, i) => (i % 2 ? undefined : i)),
      runId: "run_1",
    };
    expect(await jsonInSlices(data)).toBe(JSON.stringify(data));
  });

  it("writes small answers, arrays and values at once", () => {
    for (const data of [{ rows: [1, 2, 3] }, [1, 2], "text", 3, null, { a: { b: [1] } }])
      expect(jsonInSlices(data)).toBe(JSON.stringify(data));
  });

  it("leaves an object with its own toJSON to JSON.stringify", () => {
    const data = { rows: Array.from({ length: 1_000 }, (_, i) => i), toJSON: () => ({ short: true }) };
    expect(jsonInSlices(data)).toBe(JSON.stringify(data));
  });
});
