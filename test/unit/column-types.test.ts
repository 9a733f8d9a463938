import { describe, expect, it } from "vitest";
import { COLUMN_TYPES, COLUMN_TYPE_NAMES, columnType } from "../../lib/domain/column-types/index.ts";

// Each of the nine types validates and normalises what is written to it. [input, stored] pairs
// are accepted; bare inputs are refused.

type Case = { ok: [unknown, string][]; bad: unknown[]; options?: Record<string, unknown> };

const CASES: Record<string, Case> = {
  "short-text": {
    ok: [
      ["Acme", "Acme"],
      ["  spaced  ", "  spaced  "],
      [42, "42"],
      [1.5, "1.5"],
      [true, "true"],
      ["ünïcødé ✓", "ünïcødé ✓"],
    ],
    bad: [{ a: 1 }, [1], null, undefined, Number.NaN, Number.POSITIVE_INFINITY],
  },
  "long-text": {
    ok: [
      ["line one\nline two", "line one\nline two"],
      [7, "7"],
    ],
    bad: [{}, ["x"]],
  },
  number: {
    ok: [
      [42, "42"],
      ["42", "42"],
      [" 42 ", "42"],
      ["-3.50", "-3.5"],
      ["+7", "7"],
      ["1e3", "1000"],
      ["1_000", "1000"],
      [".5", "0.5"],
      ["042", "42"],
      [0, "0"],
      ["123456789012345678", "123456789012345678"],
      ["1.5e-2", "0.015"],
      ["-0", "0"],
      ["-0.0010", "-0.001"],
    ],
    bad: [
      "abc",
      "42 apples",
      "1,000",
      "",
      true,
      false,
      { n: 1 },
      "NaN",
      "Infinity",
      "1e999",
      "--1",
      Number.NaN,
      "0e99999",
      `${"1".repeat(60_000)}x`,
    ],
  },
  url: {
    ok: [
      ["https://acme.com", "https://acme.com"],
      ["acme.com", "https://acme.com"],
      ["http://x.org/a?b=1", "http://x.org/a?b=1"],
      [" https://acme.com/path ", "https://acme.com/path"],
      ["http://localhost:3000", "http://localhost:3000"],
    ],
    bad: [
      "not a url",
      "ftp://acme.com",
      "javascript:alert(1)",
      "https://",
      "intranet",
      "file:///etc/passwd",
      42,
      "a b.com",
    ],
  },
  email: {
    ok: [
      ["ada@example.com", "ada@example.com"],
      ["Ada.Lovelace@EXAMPLE.COM", "Ada.Lovelace@example.com"],
      [" bob+tag@sub.example.org ", "bob+tag@sub.example.org"],
    ],
    bad: [
      "ada",
      "ada@",
      "@example.com",
      "ada@example",
      "ada@@example.com",
      "a da@example.com",
      42,
      `${"a".repeat(250)}@example.com`,
    ],
  },
  file: {
    ok: [
      ["https://example.com/report.pdf", "https://example.com/report.pdf"],
      ["/api/v1/files/file_abc123", "/api/v1/files/file_abc123"],
      ["example.com/a.pdf", "https://example.com/a.pdf"],
    ],
    bad: ["/etc/passwd", "/api/v1/files/../secret", "ftp://example.com/a.pdf", "not a file", 3],
  },
  checkbox: {
    ok: [
      [true, "true"],
      [false, "false"],
      ["true", "true"],
      ["FALSE", "false"],
      ["yes", "true"],
      ["No", "false"],
      [1, "true"],
      [0, "false"],
      ["1", "true"],
      ["0", "false"],
      ["on", "true"],
      ["off", "false"],
      ["checked", "true"],
    ],
    bad: ["maybe", 2, "", { v: true }, "truthy"],
  },
  date: {
    ok: [
      ["2024-02-29", "2024-02-29"],
      [" 2024-01-05 ", "2024-01-05"],
      ["2024-01-05T10:20:30Z", "2024-01-05T10:20:30.000Z"],
      ["2024-01-05T12:00:00+02:00", "2024-01-05T10:00:00.000Z"],
    ],
    bad: ["2023-02-29", "2024-13-01", "2024-1-5", "05/01/2024", "yesterday", "2024-01-05T99:00:00Z", 20240105, true],
  },
  select: {
    options: { options: ["Lead", "Customer", "Churned"] },
    ok: [
      ["Lead", "Lead"],
      ["customer", "Customer"],
      [" CHURNED ", "Churned"],
    ],
    bad: ["Prospect", "", 1, { v: "Lead" }],
  },
};

describe("column types", () => {
  it("there are exactly the nine documented types, each registered under its own name", () => {
    expect(COLUMN_TYPE_NAMES.sort()).toEqual([
      "checkbox",
      "date",
      "email",
      "file",
      "long-text",
      "number",
      "select",
      "short-text",
      "url",
    ]);
    expect(Object.keys(COLUMN_TYPES)).toHaveLength(9);
    for (const [name, t] of Object.entries(COLUMN_TYPES)) {
      expect(t.name).toBe(name);
      expect(t.label.length).toBeGreaterThan(0);
      expect(t.aiValueHint(CASES[name]?.options ?? {}).length).toBeGreaterThan(0);
    }
    expect(columnType("currency")).toBeUndefined();
    expect(columnType("toString")).toBeUndefined();
  });

  for (const [name, c] of Object.entries(CASES)) {
    describe(name, () => {
      const type = columnType(name)!;
      for (const [input, stored] of c.ok) {
        it(`stores ${JSON.stringify(input)} as ${JSON.stringify(stored)}`, () => {
          expect(type.normalize(input, c.options ?? {})).toEqual({ ok: true, value: stored });
        });
      }
      for (const input of c.bad) {
        it(`refuses ${typeof input === "string" && input.length > 40 ? `${input.slice(0, 20)}…` : String(JSON.stringify(input) ?? input)}`, () => {
          const r = type.normalize(input, c.options ?? {});
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
        });
      }
      it("is idempotent: a stored value normalises to itself", () => {
        expect(c.ok.length).toBeGreaterThan(0);
        for (const [, stored] of c.ok)
          expect(type.normalize(stored, c.options ?? {})).toEqual({ ok: true, value: stored });
      });
    });
  }

  describe("select options", () => {
    const select = columnType("select")!;
    it("validates its own options", () => {
      expect(select.validateOptions!({ options: ["a", "b"] })).toBeNull();
      expect(select.validateOptions!({})).toMatch(/options/);
      expect(select.validateOptions!({ options: [] })).toMatch(/options/);
      expect(select.validateOptions!({ options: ["a", "A"] })).toMatch(/unique/);
      expect(select.validateOptions!({ options: ["a", 1] })).toMatch(/strings/);
      expect(select.validateOptions!({ options: [""] })).toMatch(/non-empty/);
    });
    it("refuses everything when it has no options", () => {
      expect(select.normalize("a", {}).ok).toBe(false);
    });
  });
});
