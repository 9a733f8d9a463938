import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { TARGET_QUERY } from "../support/fake-world.ts";
import { worldModel } from "../support/world-model.ts";
import { expandedRows } from "../engine/helpers.ts";
import { candidates, stopped, useFindApp } from "./helpers.ts";

// The rules a find keeps in the fake world: one candidate per entity however often it is met,
// verdicts kept only where a page it read shows them, pages that contradict their snippets or try to
// instruct the model rejected on their facts, nothing verified twice in a base, and the budget held.

const t = useFindApp();
const CRITERIA = ["Based in Berlin", "Sells B2B", "Makes software", "50–200 employees"];

const base = () =>
  createBase(t.app, {
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Website", type: "url" },
    ],
  });
const find = async (baseId: string, body: Record<string, unknown>) => {
  const res = await t.app.api("POST", `/api/v1/bases/${baseId}/finds`, {
    body: { query: TARGET_QUERY, criteria: CRITERIA, ...body },
  });
  expect(res.status, res.text).toBe(202);
  return stopped(t.app, baseId, res.body.id);
};
const verifyCalls = () => t.llm.requests.filter((r) => r.system.startsWith("You check whether one")).length;

describe("find rules", () => {
  it("keeps one candidate per entity, and rejects contradicting and instructing pages on their facts", async () => {
    t.llm.setHandler(worldModel());
    const b = await base();
    const done = await find(b.baseId, { count: 40, maxCredits: 400 });
    expect(done.stopReason).toBe("exhausted");
    const all = await candidates(t.app, b.baseId, done.id);
    expect(new Set(all.map((c) => c.key)).size).toBe(all.length);
    const byKey = new Map(all.map((c) => [c.key, c]));
    const met = new Set<string>();
    for (const company of t.world.companies) {
      const c = byKey.get(`domain:${company.domain}`);
      if (!c) continue;
      met.add(company.kind);
      // A duplicate met under two addresses (www, /about) is one candidate.
      expect(all.filter((x) => x.name === company.name)).toHaveLength(1);
      if (company.kind === "contradicting" || company.kind === "injection") expect(c.status).toBe("rejected");
      if (company.kind === "silent") expect(c.status).toBe("unclear");
    }
    expect([...met].sort()).toEqual(["contradicting", "duplicate", "injection", "plain", "silent"]);
    // Extended once every search ran dry, it plans new searches (none new here: it stops again).
    const planner = () => t.llm.requests.filter((r) => r.system.startsWith("You plan web searches"));
    const plans = planner().length;
    const more = await t.app.api("POST", `/api/v1/bases/${b.baseId}/finds/${done.id}/extend`, { body: { count: 1 } });
    expect(more.status, more.text).toBe(202);
    expect(await stopped(t.app, b.baseId, done.id)).toMatchObject({ stopReason: "exhausted" });
    expect(planner()).toHaveLength(plans + 1);
    expect(planner().at(-1)!.lastUserText).toContain(`Searched already (plan other searches):\n- ${TARGET_QUERY}`);
    // Nothing of the same base is verified again by a later find.
    const before = verifyCalls();
    const again = await find(b.baseId, { count: 5 });
    expect(again.candidates.verified).toBe(0);
    expect(verifyCalls()).toBe(before);
  });

  it("keeps a verdict only where a page it read shows it; unclear rows are added only when asked", async () => {
    t.llm.setHandler(worldModel({ inventQuotes: true }));
    const b = await base();
    const strict = await find(b.baseId, { count: 2, maxCredits: 40 });
    const seen = await candidates(t.app, b.baseId, strict.id);
    expect(seen.filter((c) => c.status === "matched")).toHaveLength(0);
    for (const c of seen.filter((x) => x.status === "unclear"))
      for (const v of c.verdicts) expect(v).toMatchObject({ satisfied: "unclear", sources: [] });
    expect(await expandedRows(t.app, b.baseId)).toHaveLength(0);

    const loose = await base();
    const added = await find(loose.baseId, { count: 2, includeUnclear: true });
    expect(added.candidates.added).toBe(2);
    const rows = await expandedRows(t.app, loose.baseId);
    expect(rows).toHaveLength(2);
    // An unclear criterion cell needs review.
    expect(rows[0].cells["Based in Berlin"]).toMatchObject({ value: "unclear", status: "done" });
    const review = await t.app.api("POST", `/api/v1/bases/${loose.baseId}/rows/query`, {
      body: { filter: { column: "Based in Berlin", needsReview: true } },
    });
    expect(review.status, review.text).toBe(200);
    expect(review.body.rows).toHaveLength(2);
  });

  it("stops at its budget, paused, having spent no more than it", async () => {
    t.llm.setHandler(worldModel());
    const b = await base();
    const paused = await find(b.baseId, { count: 30, maxCredits: 15 });
    expect(paused).toMatchObject({ status: "paused", stopReason: "budget", phase: "search" });
    expect(paused.credits.spent).toBeLessThanOrEqual(15);
    const run = await t.app.api("GET", `/api/v1/runs/${paused.runId}`);
    expect(run.body).toMatchObject({ status: "paused", pausedReason: "budget", creditsSpent: paused.credits.spent });
    // A rejected candidate costs what was spent on it: its pages and its verification.
    for (const c of await candidates(t.app, b.baseId, paused.id, "rejected")) expect(c.credits).toBeGreaterThan(0);
    // Cancelling its run ends it.
    const cancel = await t.app.api("POST", `/api/v1/runs/${paused.runId}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
    const ended = await stopped(t.app, b.baseId, paused.id);
    expect(ended).toMatchObject({ phase: "done", stopReason: "cancelled", status: "cancelled" });
  });
});
