import { describe, expect, it } from "vitest";
import type { FindCandidate } from "../../components/data/finds.ts";
import { candidateReason, emptyFindForm, findBody, suggestCriteria } from "../../components/finds/find-form.ts";

describe("find form", () => {
  it("suggests one short criterion per phrase of the query", () => {
    expect(suggestCriteria("B2B software companies in Berlin with 50-200 employees")).toEqual([
      "Based in Berlin",
      "50–200 employees",
      "Sells B2B",
      "Works in software",
    ]);
    expect(suggestCriteria("fintech startups based in New York that offer a public API")).toEqual([
      "Based in New York",
      "Works in fintech",
      "offer a public API",
    ]);
    expect(suggestCriteria("  ")).toEqual([]);
  });

  it("sends the trimmed fields and refuses what the API would", () => {
    const form = { ...emptyFindForm(), query: " Berlin software ", criteria: [" Based in Berlin ", ""], count: "5" };
    expect(findBody(form, true)).toEqual({
      body: { query: "Berlin software", criteria: ["Based in Berlin"], count: 5, includeUnclear: false, preview: true },
    });
    expect(findBody({ ...form, maxCredits: "40" }, false)).toMatchObject({ body: { maxCredits: 40, preview: false } });
    expect(findBody({ ...form, criteria: [" "] }, false)).toEqual({ error: "Add at least one criterion." });
    expect(findBody({ ...form, count: "0" }, false)).toHaveProperty("error");
    expect(findBody({ ...form, count: "2.5" }, false)).toHaveProperty("error");
    expect(findBody({ ...form, maxCredits: "0" }, false)).toHaveProperty("error");
    expect(findBody({ ...form, query: "" }, false)).toEqual({ error: "Describe what to find." });
  });
});

describe("candidate reasons", () => {
  const criteria = [
    { id: "c1", text: "Based in Berlin", columnId: "col_1", yes: 0, no: 0, unclear: 0, successRate: null },
    { id: "c2", text: "Sells B2B", columnId: "col_2", yes: 0, no: 0, unclear: 0, successRate: null },
  ];
  const verdict = (criterionId: string, satisfied: "yes" | "no" | "unclear", reasoning: string) => ({
    criterionId,
    satisfied,
    reasoning,
    sources: [],
    confidence: 0.9,
  });
  const candidate = (status: FindCandidate["status"], verdicts: FindCandidate["verdicts"] = []): FindCandidate => ({
    id: "fc_1",
    name: "Acme",
    url: null,
    key: "name:acme",
    status,
    query: null,
    snippet: null,
    verdicts,
    rowId: null,
    credits: 0,
    error: status === "error" ? { code: "fetch_failed", message: "Could not resolve acme.test." } : null,
  });

  it("names the criteria a candidate failed or left unclear, with the model's reasoning", () => {
    const v = [verdict("c1", "no", "Headquartered in Munich."), verdict("c2", "unclear", "The pages do not say.")];
    expect(candidateReason(candidate("rejected", v), criteria)).toBe("Based in Berlin: Headquartered in Munich.");
    expect(candidateReason(candidate("unclear", v), criteria)).toBe("Sells B2B: The pages do not say.");
    expect(candidateReason(candidate("matched", [verdict("c1", "yes", "Berlin.")]), criteria)).toBeNull();
    expect(candidateReason(candidate("excluded"), criteria)).toBe("Already in the base.");
    expect(candidateReason(candidate("error"), criteria)).toBe("Could not resolve acme.test.");
  });
});
