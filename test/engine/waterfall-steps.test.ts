import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { addRows, settled, useEngineApp } from "./helpers.ts";

// Step statistics of a waterfall, after real runs against two local providers: the expensive one
// is first and rarely hits, the cheap one second and usually does; the figures come from the
// cells' traces and the suggested order puts the cheap one first.

const t = useEngineApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
let pricey: FakeProvider;
let thrifty: FakeProvider;
beforeAll(async () => {
  // Pricey knows d1 and d2 and is down for d8: 2 hits in 8 calls, 4 credits a call (none on the error).
  pricey = await startFakeProvider((r) => {
    const d = r.query.get("domain") ?? "";
    if (d === "d1.example" || d === "d2.example") return { json: { email: `ceo@${d}` } };
    if (d === "d8.example") return { status: 500, json: {} };
    return { status: 404, json: {} };
  });
  // Thrifty, reached by d3–d8, knows d3–d6, answers d7 with an address the check refuses: 1 credit a call.
  thrifty = await startFakeProvider((r) => {
    const d = r.query.get("domain") ?? "";
    if (["d3.example", "d4.example", "d5.example", "d6.example"].includes(d)) return { json: { email: `hi@${d}` } };
    if (d === "d7.example") return { json: { email: "nobody" } };
    return { status: 404, json: {} };
  });
});
afterAll(async () => {
  await pricey?.close();
  await thrifty?.close();
});

const provider = (label: string, p: FakeProvider, credits: number) => ({
  kind: "http",
  label,
  request: { method: "GET", url: `${p.url}/find?domain={{Domain}}` },
  extract: "email",
  credits: { found: credits, notFound: credits },
  validate: '$contains($value, "@")',
  retries: 0,
});

describe("GET /bases/{baseId}/columns/{columnId}/steps", () => {
  it("counts each step's calls, hits, rates, credits and time, and suggests the cheaper step first", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        {
          name: "Email",
          type: "short-text",
          fill: { kind: "waterfall", steps: [provider("Pricey", pricey, 4), provider("Thrifty", thrifty, 1)] },
        },
      ],
    });
    const path = `/api/v1/bases/${base.baseId}/columns/${base.col.Email}/steps`;
    const before = await t.app.api("GET", path);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ rows: 0, suggestedOrder: [0, 1], estimatedSaving: null });
    expect(before.body.steps[0]).toMatchObject({ calls: 0, hitRate: null, p50Ms: null, creditsPerFound: null });

    await addRows(
      t.app,
      base.baseId,
      Array.from({ length: 8 }, (_, i) => ({ Domain: `d${i + 1}.example` })),
    );
    await settled(t.app, base.baseId);
    const res = await t.app.api("GET", path);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ columnId: base.col.Email, kind: "waterfall", rows: 8 });
    const [first, second] = body.steps;
    expect(first).toMatchObject({
      step: 0,
      kind: "http",
      label: "Pricey",
      provider: pricey.host,
      calls: 8,
      found: 2,
      hitRate: 0.25,
      invalidRate: 0,
      errorRate: 0.125,
      cachedRate: 0,
      credits: 28,
      creditsPerFound: 14,
    });
    expect(second).toMatchObject({
      step: 1,
      label: "Thrifty",
      provider: thrifty.host,
      calls: 6,
      found: 4,
      errorRate: 0,
      credits: 6,
      creditsPerFound: 1.5,
    });
    expect(second.hitRate).toBeCloseTo(4 / 6, 10);
    expect(second.invalidRate).toBeCloseTo(1 / 6, 10);
    for (const s of body.steps) expect(s.p50Ms).toEqual(expect.any(Number));

    // Current: 3.5 + 0.75 × 1 credits over 1 − 0.75 × 1/3 found; Thrifty first: 1 + 1/3 × 3.5.
    expect(body.suggestedOrder).toEqual([1, 0]);
    expect(body.method).toBe("exhaustive");
    expect(body.estimatedCreditsPerFound.current).toBeCloseTo(4.25 / 0.75, 10);
    expect(body.estimatedCreditsPerFound.suggested).toBeCloseTo((1 + 3.5 / 3) / 0.75, 10);
    expect(body.estimatedSaving).toBeCloseTo(1 - (1 + 3.5 / 3) / 4.25, 10);
    expect(body.estimatedSaving).toBeGreaterThan(0);

    // The statistics agree with what the ledger charged the column.
    const [{ spent }] = await t.app.rt.db.prisma.$queryRawUnsafe<{ spent: number }[]>(
      `SELECT COALESCE(-sum(amount), 0)::int AS spent FROM credit_entries WHERE column_id = $1`,
      base.col.Email,
    );
    expect(spent).toBe(first.credits + second.credits);

    // Another workspace's base is none; a column filled by hand keeps no steps; an unknown column is none.
    const theirs = await t.app.api("GET", path, { key: t.app.keyB });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, "base_not_found"]);
    const plain = await t.app.api("GET", `/api/v1/bases/${base.baseId}/columns/${base.col.Domain}/steps`);
    expect([plain.status, plain.body.error.code]).toEqual([409, "no_steps"]);
    const none = await t.app.api("GET", `/api/v1/bases/${base.baseId}/columns/scol_none/steps`);
    expect([none.status, none.body.error.code]).toEqual([404, "column_not_found"]);
  });

  it("reports an HTTP column as one step, a cached answer a free hit", async () => {
    const http = { ...provider("Lookup", thrifty, 2), kind: "http" } as Record<string, unknown>;
    delete http.validate;
    delete http.label;
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        { name: "Email", type: "short-text", fill: http },
      ],
    });
    await addRows(t.app, base.baseId, [{ Domain: "d3.example" }, { Domain: "d9.example" }]);
    await settled(t.app, base.baseId);
    const res = await t.app.api("GET", `/api/v1/bases/${base.baseId}/columns/${base.col.Email}/steps`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: "http", rows: 2, suggestedOrder: [0], estimatedSaving: 0 });
    // d3's answer comes from the workspace's answer cache (the waterfall above asked it): a free hit.
    expect(res.body.steps).toEqual([
      expect.objectContaining({ step: 0, label: null, provider: thrifty.host, calls: 2, found: 1, credits: 2 }),
    ]);
    expect(res.body.steps[0]).toMatchObject({ hitRate: 0.5, cachedRate: 0.5, creditsPerFound: 2 });
  });
});
