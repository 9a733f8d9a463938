import { describe, expect, it } from "vitest";
import { compileFormula, renameInFormula } from "../../lib/domain/formulas/compile.ts";

describe("compileFormula", () => {
  it("names the fields an expression reads, and not its strings or variables", () => {
    const f = compileFormula('$join([First, `Last name`], " ") & "Email" & $x & ($y := Price; $y)');
    expect([...f.names].sort()).toEqual(["First", "Last name", "Price"]);
  });

  it("evaluates within its bounds", async () => {
    expect(await compileFormula("a * 2").evaluate({ a: 21 })).toBe(42);
    const recursive = compileFormula("($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(n))");
    expect(await recursive.evaluate({ n: 10 })).toBe(10);
    await expect(recursive.evaluate({ n: 100_000 })).rejects.toThrow(/deeply|longer/);
  });
});

describe("renameInFormula", () => {
  it("rewrites field references only, quoting names that need it", () => {
    expect(renameInFormula('Email & "Email" & $substringAfter(Email, "@")', "Email", "Work email")).toBe(
      '`Work email` & "Email" & $substringAfter(`Work email`, "@")',
    );
    expect(renameInFormula("`Work email` & x", "Work email", "Mail")).toBe("Mail & x");
    expect(renameInFormula("Emails & Email", "Email", "E")).toBe("Emails & E");
  });
});
