import { describe, expect, it } from "vitest";
import { compileFormula, renameInFormula } from "../../lib/domain/formulas/compile.ts";

describe("compileFormula", () => {
  it("names the fields an expression reads, and not its strings or variables", async () => {
    const f = await compileFormula('$join([First, `Last name`], " ") & "Email" & $x & ($y := Price; $y)');
    expect([...f.names].sort()).toEqual(["First", "Last name", "Price"]);
  });

  it("evaluates within its bounds", async () => {
    expect(await (await compileFormula("a * 2")).evaluate({ a: 21 })).toBe(42);
    const recursive = await compileFormula("($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(n))");
    expect(await recursive.evaluate({ n: 10 })).toBe(10);
    await expect(recursive.evaluate({ n: 100_000 })).rejects.toThrow(/deeply|longer/);
  });
});

describe("renameInFormula", () => {
  it("rewrites field references only, quoting names that need it", async () => {
    expect(await renameInFormula('Email & "Email" & $substringAfter(Email, "@")', "Email", "Work email")).toBe(
      '`Work email` & "Email" & $substringAfter(`Work email`, "@")',
    );
    expect(await renameInFormula("`Work email` & x", "Work email", "Mail")).toBe("Mail & x");
    expect(await renameInFormula("Emails & Email", "Email", "E")).toBe("Emails & E");
  });
});

describe("the examples of docs/providers.md", () => {
  const row = {
    Email: "ada@example.com",
    Website: "https://acme.example/about",
    First: "Ada",
    Price: 2.5,
    Quantity: 4,
    Revenue: 1000,
    Employees: 3,
    Signed: "2024-03-01",
  };
  it.each([
    ['$substringAfter(Email, "@")', "example.com"],
    ['$substringBefore($substringAfter(Website, "//"), "/")', "acme.example"],
    ['$join([First, Last], " ")', "Ada"],
    ["Price * Quantity", 10],
    ["$round(Revenue / Employees, 2)", 333.33],
    ['Employees > 500 ? "Enterprise" : "SMB"', "SMB"],
    ['$fromMillis($toMillis(Signed) + 30 * 86400000, "[Y0001]-[M01]-[D01]")', "2024-03-31"],
  ])("%s", async (expression, expected) => {
    expect(await (await compileFormula(expression)).evaluate(row)).toEqual(expected);
  });
});
