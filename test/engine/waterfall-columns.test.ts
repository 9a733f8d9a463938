import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { addRows, settled, useEngineApp } from "./helpers.ts";

// Waterfall columns with the engine running: two local providers with known answers, then the
// model. Steps run in order and stop at the first valid value; a miss or an invalid value moves
// on without re-asking; only the steps that ran are charged, exactly.

const t = useEngineApp({ AI_CONCURRENCY: "4", ALLOWED_PRIVATE_HOSTS: "127.0.0.1", CREDITS_COST_CELL_RUN: "3" });
let cheap: FakeProvider;
let premium: FakeProvider;
beforeAll(async () => {
  // The cheap provider knows a.example, and answers b.example with an address that fails the check.
  cheap = await startFakeProvider((r) => {
    const d = r.query.get("domain");
    if (d === "a.example") return { json: { email: "ceo@a.example" } };
    if (d === "b.example") return { json: { email: "not-an-address" } };
    return { status: 404, json: {} };
  });
  // The premium one knows b.example and c.example; it is down for d.example.
  premium = await startFakeProvider((r) => {
    const d = r.query.get("domain");
    if (d === "b.example" || d === "c.example") return { json: { result: { email: `founder@${d}` } } };
    if (d === "d.example") return { status: 500, json: {} };
    return { status: 404, json: {} };
  });
});
afterAll(async () => {
  await cheap.close();
  await premium.close();
});
beforeEach(() => {
  cheap.reset();
  premium.reset();
});

const isEmail = '$contains($value, "@")';
const waterfall = {
  name: "Email",
  type: "short-text",
  fill: {
    kind: "waterfall",
    steps: [
      {
        kind: "http",
        label: "Cheap",
        request: { method: "GET", url: "CHEAP/find?domain={{Domain}}" },
        extract: "email",
        credits: { found: 1, notFound: 0 },
        validate: isEmail,
        retries: 0,
      },
      {
        kind: "http",
        label: "Premium",
        request: { method: "GET", url: "PREMIUM/find?domain={{Domain}}" },
        extract: "result.email",
        credits: { found: 5, notFound: 1 },
        validate: isEmail,
        retries: 0,
      },
      { kind: "ai", label: "Model", instructions: "Find the work email of the company's founder.", minConfidence: 0.6 },
    ],
  },
};

const ledger = async (columnId: string) =>
  Object.fromEntries(
    (
      await t.app.rt.db.prisma.$queryRawUnsafe<{ row_id: string; amount: number }[]>(
        `SELECT row_id, amount FROM credit_entries WHERE column_id = $1`,
        columnId,
      )
    ).map((e) => [e.row_id, -e.amount]),
  );

describe("waterfall columns", () => {
  it("stops at the first valid value, moves past misses and invalid values, and charges only what ran", async () => {
    const spec = JSON.parse(
      JSON.stringify(waterfall).replaceAll("CHEAP", cheap.url).replaceAll("PREMIUM", premium.url),
    );
    const base = await createBase(t.app, { columns: [{ name: "Domain", type: "short-text", isPrimary: true }, spec] });
    t.llm.setHandler((req) =>
      req.lastUserText.includes("e.example")
        ? { json: { value: "guess@e.example", sources: [], confidenceScore: 0.3 } }
        : { json: { value: "hello@c2.example", sources: [], confidenceScore: 0.9 } },
    );
    const added = await addRows(t.app, base.baseId, [
      { Domain: "a.example" },
      { Domain: "b.example" },
      { Domain: "c.example" },
      { Domain: "d.example" },
      { Domain: "e.example" },
    ]);
    const rows = await settled(t.app, base.baseId);
    const cell = (i: number) => rows[i].cells.Email;
    const trace = (i: number) => cell(i).metadata.steps.map((s: { status: string }) => s.status);

    // a: the cheap provider's address wins; nothing after it runs.
    expect(cell(0)).toMatchObject({ value: "ceo@a.example", status: "done" });
    expect(trace(0)).toEqual(["found", "skipped", "skipped"]);
    // b: the cheap answer fails the check, the premium one wins.
    expect(cell(1)).toMatchObject({ value: "founder@b.example", status: "done" });
    expect(trace(1)).toEqual(["invalid", "found", "skipped"]);
    // c: a cheap miss, then premium.
    expect(trace(2)).toEqual(["not_found", "found", "skipped"]);
    // d: a miss, a provider error, then the model answers with enough confidence.
    expect(cell(3)).toMatchObject({ value: "hello@c2.example", status: "done" });
    expect(trace(3)).toEqual(["not_found", "error", "found"]);
    expect(cell(3).metadata.steps[1].error.code).toBe("provider_failed");
    expect(cell(3).metadata.confidenceScore).toBe(0.9);
    // e: two misses and a model answer below the step's confidence: nothing valid, not_found.
    expect(cell(4)).toMatchObject({ value: "", status: "not_found" });
    expect(trace(4)).toEqual(["not_found", "not_found", "invalid"]);

    // Exactly what ran: a 1; b 1 + 5; c 0 + 5; d 0 + 0 (error) + 3 (model); e 0 + 1 + 3.
    const charged = await ledger(base.col.Email);
    expect(added.map((r) => charged[r.id] ?? 0)).toEqual([1, 6, 5, 3, 4]);
    // Each provider was asked once per row that reached it; the model only for d and e.
    expect(cheap.requests).toHaveLength(5);
    expect(premium.requests.map((r) => r.query.get("domain"))).toEqual(
      expect.arrayContaining(["b.example", "c.example", "d.example", "e.example"]),
    );
    expect(premium.requests).toHaveLength(4);
    expect(t.llm.requests).toHaveLength(2);

    // A run's estimate counts what every step declares (1 + 5 + the AI cell's 3), not the AI cell cost.
    const estimate = await t.app.api("POST", `/api/v1/bases/${base.baseId}/run/estimate`, {
      body: { columnIds: [base.col.Email] },
    });
    expect(estimate.status, estimate.text).toBe(200);
    expect(estimate.body).toMatchObject({ cells: 5, credits: 5 * (1 + 5 + 3) });
  });

  it("ends in error only when every step that ran failed", async () => {
    const spec = {
      name: "Email",
      fill: {
        kind: "waterfall",
        steps: [
          {
            kind: "http",
            request: { method: "GET", url: `${premium.url}/find?domain={{Domain}}` },
            extract: "x",
            retries: 0,
          },
          {
            kind: "http",
            request: { method: "GET", url: `${premium.url}/find?domain={{Domain}}&again=1` },
            extract: "x",
            retries: 0,
          },
        ],
      },
    };
    const base = await createBase(t.app, { columns: [{ name: "Domain", type: "short-text", isPrimary: true }, spec] });
    await addRows(t.app, base.baseId, [{ Domain: "d.example" }]);
    const [row] = await settled(t.app, base.baseId);
    expect(row.cells.Email).toMatchObject({ status: "error", error: { code: "provider_failed" } });
  });

  it("uses a formula step for free, and refuses steps naming unknown columns", async () => {
    const spec = {
      name: "Host",
      fill: {
        kind: "waterfall",
        steps: [
          { kind: "formula", expression: '$substringAfter(Email, "@")', validate: '$contains($value, ".")' },
          { kind: "formula", expression: '"unknown"' },
        ],
      },
    };
    const base = await createBase(t.app, { columns: [{ name: "Email", type: "short-text", isPrimary: true }, spec] });
    await addRows(t.app, base.baseId, [{ Email: "x@y.example" }, { Email: "nobody" }]);
    const rows = await settled(t.app, base.baseId);
    expect(rows.map((r) => r.cells.Host.value)).toEqual(["y.example", "unknown"]);
    expect(await ledger(base.col.Host)).toEqual({});
    const bad = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: { name: "Bad", fill: { kind: "waterfall", steps: [{ kind: "formula", expression: "Emial" }] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_fill", details: { name: "Emial" } });
  });
});
