import { describe, expect, it } from "vitest";
import { parseTsv, toTsv } from "../../components/grid/table/tsv.ts";
import { isLowConfidence, parseSources } from "../../components/grid/cells/cell-state.ts";

describe("TSV", () => {
  it("parses spreadsheet clipboard text, with quoted tabs, newlines and quotes", () => {
    const text = 'Name\tNote\r\nAcme\t"two\nlines"\r\n"Say ""hi"""\t"a\tb"\r\n';
    expect(parseTsv(text)).toEqual([
      ["Name", "Note"],
      ["Acme", "two\nlines"],
      ['Say "hi"', "a\tb"],
    ]);
  });

  it("keeps empty fields and drops the trailing newline", () => {
    expect(parseTsv("a\t\tc\n\tb\t\n")).toEqual([
      ["a", "", "c"],
      ["", "b", ""],
    ]);
  });

  it("round-trips through toTsv", () => {
    const rows = [
      ["plain", 'with "quote"'],
      ["tab\there", "line\nbreak"],
    ];
    expect(parseTsv(toTsv(rows))).toEqual(rows);
  });
});

describe("cell state", () => {
  it("flags low confidence only for finished, generated cells under the threshold", () => {
    expect(
      isLowConfidence(
        { value: "x", status: "done", metadata: { sources: null, additionalDetails: null, confidenceScore: 0.3 } },
        0.5,
      ),
    ).toBe(true);
    expect(
      isLowConfidence(
        { value: "x", status: "done", metadata: { sources: null, additionalDetails: null, confidenceScore: 0.7 } },
        0.5,
      ),
    ).toBe(false);
    expect(isLowConfidence({ value: "x", status: "running" }, 0.5)).toBe(false);
    // A reviewer who accepted the value outweighs the model's doubt: no tint.
    expect(
      isLowConfidence(
        {
          value: "x",
          status: "done",
          verified: true,
          metadata: { sources: null, additionalDetails: null, confidenceScore: 0.3 },
        },
        0.5,
      ),
    ).toBe(false);
  });

  it("parses Markdown sources, keeps excerpts by URL and ignores non-http links", () => {
    const sources = parseSources({
      value: "",
      metadata: {
        sources: ["[Acme — About](https://acme.com/about)", "https://www.example.org/x", "[bad](javascript:alert(1))"],
        excerpts: { "https://acme.com/about": "Founded in 1999" },
        additionalDetails: null,
        confidenceScore: null,
      },
    });
    expect(sources).toEqual([
      { label: "Acme — About", url: "https://acme.com/about", excerpt: "Founded in 1999" },
      { label: "example.org", url: "https://www.example.org/x", excerpt: undefined },
    ]);
  });
});
