import { describe, expect, it } from "vitest";
import { stripTags, trimChar, trimLineEnds } from "../../lib/text.ts";

describe("text helpers", () => {
  it.each([
    ["//a//", "/", "both", "a"],
    ["//a//", "/", "end", "//a"],
    ["//a//", "/", "start", "a//"],
    ["////", "/", "both", ""],
    ["a", "/", "both", "a"],
    ["", "0", "end", ""],
  ] as const)("trimChar(%j, %j, %s) is %j", (s, ch, side, out) => {
    expect(trimChar(s, ch, side)).toBe(out);
  });

  it.each([
    ["<strong>Acme</strong> raises", "Acme raises"],
    ["a < b", "a "],
    ["<<<<", ""],
    ["no tags", "no tags"],
    ["x<br/>y<i>z</i>", "xyz"],
  ])("stripTags(%j) is %j", (s, out) => {
    expect(stripTags(s)).toBe(out);
  });

  it("trims the end of every line only", () => {
    expect(trimLineEnds("  a  \t\n b \n\tc")).toBe("  a\n b\n\tc");
  });

  it("stays linear on input that makes the regular-expression versions backtrack", () => {
    const hostile = `${"<".repeat(200_000)}${"/".repeat(200_000)}`;
    expect(stripTags(hostile)).toBe("");
    expect(trimChar(`${"/".repeat(200_000)}x${"/".repeat(200_000)}`, "/")).toBe("x");
  });
});
