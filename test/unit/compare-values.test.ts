import { describe, expect, it } from "vitest";
import { sameValue } from "../../lib/domain/column-types/index.ts";

// Whether a refreshed value changed, as its column's type reads it.

const same = (type: string, a: string, b: string, columnOptions: Record<string, unknown> = {}) =>
  sameValue({ type, columnOptions }, a, b);

describe("values compared by type", () => {
  it("numbers by value", () => {
    expect(same("number", "1200", "1200.0")).toBe(true);
    expect(same("number", "1200", "1.2e3")).toBe(true);
    expect(same("number", "1200", "1201")).toBe(false);
  });
  it("URLs without scheme case, www., trailing slash or host case", () => {
    expect(same("url", "https://www.Acme.com/", "https://acme.com")).toBe(true);
    expect(same("url", "acme.com/about/", "https://acme.com/about")).toBe(true);
    expect(same("url", "https://acme.com/about", "https://acme.com/team")).toBe(false);
    expect(same("url", "https://acme.com/?q=1", "https://acme.com/?q=2")).toBe(false);
  });
  it("emails without case", () => {
    expect(same("email", "Jane@Acme.com", "jane@acme.com")).toBe(true);
    expect(same("email", "jane@acme.com", "john@acme.com")).toBe(false);
  });
  it("text without case or extra spaces, but not without words", () => {
    expect(same("short-text", "Head of  Sales ", "head of sales")).toBe(true);
    expect(same("long-text", "Head of Sales", "Head of Marketing")).toBe(false);
  });
  it("no value against a value is a change, and an unknown type compares exactly", () => {
    expect(same("number", "", "0")).toBe(false);
    expect(same("mystery", "a", "A")).toBe(false);
  });
});
