import { describe, expect, it } from "vitest";
import {
  describeOrigin,
  restoreBlocked,
  sideOf,
  statusNote,
  wordDiff,
} from "../../components/grid/history/history-model.ts";

describe("wordDiff", () => {
  it("marks the words that changed and keeps the rest", () => {
    const parts = wordDiff("Headquarters in Lyon, 120 staff", "Headquarters in Paris, 140 staff");
    expect(parts.filter((p) => p.kind === "removed").map((p) => p.text.trim())).toEqual(["Lyon", "120"]);
    expect(parts.filter((p) => p.kind === "added").map((p) => p.text.trim())).toEqual(["Paris", "140"]);
    expect(parts.some((p) => p.kind === "same" && p.text.includes("Headquarters in"))).toBe(true);
  });

  it("gives back both sides when its parts are joined", () => {
    const cases: [string, string][] = [
      ["a b c", "a x c"],
      ["one  two\nthree", "one two\nthree four"],
      ["Acme Corp", "Acme Corporation Ltd"],
      ["", "new"],
      ["old", ""],
    ];
    for (const [before, after] of cases) {
      const parts = wordDiff(before, after);
      expect(sideOf(parts, "removed")).toBe(before);
      expect(sideOf(parts, "added")).toBe(after);
    }
  });

  it("shows an empty side, an equal value and long values whole", () => {
    expect(wordDiff("", "Paris")).toEqual([{ text: "Paris", kind: "added" }]);
    expect(wordDiff("Paris", "")).toEqual([{ text: "Paris", kind: "removed" }]);
    expect(wordDiff("same", "same")).toEqual([{ text: "same", kind: "same" }]);
    expect(wordDiff("", "")).toEqual([]);
    const long = "word ".repeat(1_000);
    expect(wordDiff(long, `${long}more`)).toEqual([
      { text: long, kind: "removed" },
      { text: `${long}more`, kind: "added" },
    ]);
  });
});

describe("describeOrigin", () => {
  it("names the kind and the reason", () => {
    expect(describeOrigin({ kind: "answer", reason: null })).toBe("Generated");
    expect(describeOrigin({ kind: "review", reason: "accept" })).toBe("Reviewed (accept)");
    expect(describeOrigin({ kind: "answer", reason: "timeout" })).toBe("Generated (timeout)");
    expect(describeOrigin({ kind: "revert", reason: null })).toBe("Restored");
  });
});

describe("restoreBlocked", () => {
  it("refuses formulas and busy cells, with a reason", () => {
    expect(restoreBlocked({ type: "formula" }, "done")).toMatch(/formula/);
    expect(restoreBlocked({ type: "short-text" }, "running")).toMatch(/running/);
    expect(restoreBlocked({ type: "short-text" }, "pending")).toMatch(/queued/);
    expect(restoreBlocked({ type: "short-text" }, "done")).toBeNull();
    expect(restoreBlocked({ type: "short-text" }, undefined)).toBeNull();
  });
});

describe("statusNote", () => {
  it("names only the statuses a bare value would hide", () => {
    expect(statusNote("done")).toBeNull();
    expect(statusNote(null)).toBeNull();
    expect(statusNote("error")).toBe("failed");
    expect(statusNote("not_found")).toBe("not found");
  });
});
