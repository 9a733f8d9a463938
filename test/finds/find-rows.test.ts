import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { meets, TARGET, TARGET_QUERY } from "../support/fake-world.ts";
import { worldModel } from "../support/world-model.ts";
import { expandedRows } from "../engine/helpers.ts";
import { candidates, stopped, useFindApp } from "./helpers.ts";

// Find rows end to end in the fake world: searches, candidates read out of results, each verified
// on its own pages, the matches added as rows with their verdict cells, and every source a page the
// find fetched.

const t = useFindApp();
const CRITERIA = ["Based in Berlin", "Sells B2B", "Makes software", "50–200 employees"];

const companyBase = () =>
  createBase(t.app, {
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Website", type: "url" },
      { name: "Employees", type: "number" },
    ],
  });

const startFind = async (baseId: string, body: Record<string, unknown>) => {
  const res = await t.app.api("POST", `/api/v1/bases/${baseId}/finds`, {
    body: { query: TARGET_QUERY, criteria: CRITERIA, ...body },
  });
  expect(res.status, res.text).toBe(202);
  return res.body as { id: string; runId: string; criteria: { id: string; columnId: string }[] };
};

describe("find rows", () => {
  it("adds rows that meet every criterion, leaves out what the base has, and grounds each verdict", async () => {
    t.llm.setHandler(worldModel());
    const world = t.world;
    const base = await companyBase();
    const known = world.companies.find((c) => meets(c, TARGET) && c.kind === "plain")!;
    await t.app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: known.name, Website: `https://www.${known.domain}/` } }] },
    });
    const started = await startFind(base.baseId, { count: 4 });
    const find = await stopped(t.app, base.baseId, started.id);
    expect(find).toMatchObject({ phase: "done", stopReason: "target", status: "done" });
    expect(find.candidates.added).toBe(4);
    expect(find.criteria.map((c: { successRate: number | null }) => c.successRate)).not.toContain(null);

    const rows = await expandedRows(t.app, base.baseId);
    expect(rows).toHaveLength(5);
    const byDomain = new Map(world.companies.map((c) => [c.domain, c]));
    const fetched = new Set(world.fetches.map((f) => `${f.host}${f.path}`));
    for (const row of rows.slice(1)) {
      const host = new URL(row.cells.Website.value).hostname.replace(/^www\./, "");
      const company = byDomain.get(host)!;
      expect(company.name).toBe(row.cells.Company.value);
      expect(meets(company, TARGET)).toBe(true);
      expect(company.domain).not.toBe(known.domain);
      expect(row.cells.Employees.value).toBe(String(company.employees));
      for (const criterion of CRITERIA) {
        const cell = row.cells[criterion];
        expect(cell).toMatchObject({ value: "yes", status: "done" });
        expect(cell.metadata.confidenceScore).toBeGreaterThan(0.5);
        // Every source is a page this find fetched, with the words that show the verdict.
        for (const source of cell.metadata.sources as string[]) {
          const url = new URL(/\((.*)\)$/.exec(source)![1]);
          expect(fetched.has(`${url.hostname}${url.pathname}`)).toBe(true);
          expect(cell.metadata.excerpts[url.href]).toContain(company.name);
        }
      }
    }
    // The company the base had was met, and left out.
    const all = await candidates(t.app, base.baseId, started.id);
    expect(all.find((c) => c.key === `domain:${known.domain}`)?.status).toBe("excluded");
    expect(new Set(all.map((c) => c.key)).size).toBe(all.length);

    // Each step is in the ledger, and the find's figure is their sum.
    const ledger = await t.app.rt.db.prisma.$queryRawUnsafe<{ reason: string; total: number }[]>(
      `SELECT reason, -sum(amount)::int AS total FROM credit_entries WHERE base_id = $1 GROUP BY reason`,
      base.baseId,
    );
    const spent = Object.fromEntries(ledger.map((l) => [l.reason, l.total]));
    expect(Object.keys(spent).sort()).toEqual(["find_plan", "find_scrape", "find_search", "find_verify"]);
    expect(Object.values(spent).reduce((a, b) => a + b, 0)).toBe(find.credits.spent);
  });

  it("previews, estimates the whole count, then extends without verifying anything twice", async () => {
    t.llm.setHandler(worldModel());
    const base = await companyBase();
    const started = await startFind(base.baseId, { count: 6, preview: true });
    const preview = await stopped(t.app, base.baseId, started.id);
    expect(preview).toMatchObject({ phase: "done", stopReason: "preview", preview: true });
    expect(preview.candidates.verified).toBeLessThanOrEqual(10);
    expect(preview.candidates.added).toBe(0);
    expect(preview.credits.estimateForCount).toBeGreaterThan(0);
    expect(await expandedRows(t.app, base.baseId)).toHaveLength(0);
    const verifyCalls = () => t.llm.requests.filter((r) => r.system.startsWith("You check whether one")).length;
    const before = verifyCalls();

    const extended = await t.app.api("POST", `/api/v1/bases/${base.baseId}/finds/${started.id}/extend`, {
      body: { count: 6 },
    });
    expect(extended.status, extended.text).toBe(202);
    expect(extended.body.runId).not.toBe(started.runId);
    const done = await stopped(t.app, base.baseId, started.id);
    expect(done).toMatchObject({ stopReason: "target", preview: false });
    expect(done.candidates.added).toBe(6);
    expect(await expandedRows(t.app, base.baseId)).toHaveLength(6);
    // The preview's candidates were not asked about again.
    const all = await candidates(t.app, base.baseId, started.id);
    const verified = all.filter((c) => ["matched", "rejected", "unclear"].includes(c.status)).length;
    expect(verifyCalls()).toBe(verified);
    expect(verifyCalls() - before).toBe(verified - preview.candidates.verified);
  });
});
