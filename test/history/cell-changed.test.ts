import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows, settled, useEngineApp } from "../engine/helpers.ts";
import { processed, register, useRelayAndReceiver } from "../webhooks/helpers.ts";
import type { AppEvent } from "../../lib/events.ts";
import { rerun } from "./helpers.ts";

// Change detection: a refresh that really changed a value (as its column's type compares it)
// announces cell.changed, live and as a signed webhook, and is found by changedSince; one that
// found the same value only counts as checked.

const t = useEngineApp({ AI_MAX_ATTEMPTS: "1", ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1" });
let base: TestBase;
const hooks = useRelayAndReceiver(() => t.app);
const answers: Record<string, string> = { Acme: "https://www.acme.example/", Globex: "https://globex.example" };
const live: Extract<AppEvent, { type: "cell.changed" }>[] = [];

beforeEach(() =>
  t.llm.setHandler((req) => {
    const company = /"Company": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "";
    return { json: { value: answers[company] ?? "https://unknown.example", sources: [], confidenceScore: 0.9 } };
  }),
);

beforeAll(async () => {
  await register(t.app, hooks.receiver, { events: ["cell.changed"] });
  t.app.rt.bus.on((e) => void (e.type === "cell.changed" && live.push(e)));
  base = await createBase(t.app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Website", type: "url", isAiEnabled: true, inputColumns: ["Company"], instructions: "The website." },
    ],
  });
});

const query = (filter: unknown) => t.app.api("POST", `/api/v1/bases/${base.baseId}/rows/query`, { body: { filter } });

describe("change detection", () => {
  it("a first answer and the same value written differently are no change", async () => {
    const before = new Date().toISOString();
    const [acme, globex] = await addRows(t.app, base.baseId, [{ Company: "Acme" }, { Company: "Globex" }]);
    await settled(t.app, base.baseId);
    answers.Acme = "https://ACME.example";
    await rerun(t.app, base, [base.col.Website]);
    expect(live).toEqual([]);
    const changed = await query({ column: "Website", changedSince: before });
    expect(changed.body.rows).toEqual([]);
    const row = await t.app.api("GET", `/api/v1/bases/${base.baseId}/rows/${acme.id}?expand=true`);
    expect(row.body.cells.Website.changedAt).toBeUndefined();
    expect(globex.id).toBeTruthy();
  });

  it("a real change is announced live and by a signed webhook, and changedSince finds it", async () => {
    const since = new Date().toISOString();
    answers.Globex = "https://globex.example/en";
    const runId = await rerun(t.app, base, [base.col.Website]);
    const [delivery] = await processed(hooks.receiver, 1);
    expect(delivery.verified).toBe(true);
    expect(delivery.payload).toMatchObject({
      type: "cell.changed",
      data: {
        baseId: base.baseId,
        columnId: base.col.Website,
        runId,
        before: "https://globex.example",
        after: "https://globex.example/en",
        confidence: 0.9,
        reason: "The value changed, compared as url.",
      },
    });
    expect(live.map((e) => [e.before, e.after])).toEqual([["https://globex.example", "https://globex.example/en"]]);
    const changed = await query({ column: "Website", changedSince: since });
    expect(changed.body.rows.map((r: { cells: { Company: string } }) => r.cells.Company)).toEqual(["Globex"]);
    const later = await query({ column: "Website", changedSince: new Date(Date.now() + 60_000).toISOString() });
    expect(later.body.rows).toEqual([]);
  });

  it("refuses a changedSince that is not a date, or on a column that is not generated", async () => {
    const bad = await query({ column: "Website", changedSince: "last week" });
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_filter"]);
    const plain = await query({ column: "Company", changedSince: "2026-11-01" });
    expect([plain.status, plain.body.error.code]).toEqual([400, "invalid_filter"]);
  });
});
