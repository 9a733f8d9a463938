import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { addRows, settled, useEngineApp } from "../engine/helpers.ts";

// A formula over a generated column: recomputed when the cell stores its value or a reviewer
// corrects it, without a queue; a generated column reading the formula waits for that cell.

const t = useEngineApp({ AI_CONCURRENCY: "4", ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider((r) => ({ json: { ok: `checked ${r.query.get("v")}` } }));
});
afterAll(() => provider.close());

describe("formulas over generated columns", () => {
  it("follow the generated value, and their readers wait for it", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Name", type: "short-text", isPrimary: true },
        { name: "Bio", isAiEnabled: true, inputColumns: ["Name"], instructions: "A one-line bio." },
        { name: "Loud", fill: { kind: "formula", expression: "$uppercase(Bio)" } },
        {
          name: "Check",
          fill: { kind: "http", request: { method: "GET", url: `${provider.url}/check?v={{Loud}}` }, extract: "ok" },
        },
      ],
    });
    const check = await t.app.rt.db.prisma.column.findUnique({ where: { id: base.col.Check } });
    expect(check?.writerColumnIds).toEqual([base.col.Bio]);

    t.llm.setHandler((req) => {
      const name = /"Name": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "?";
      return { delayMs: 100, json: { value: `bio of ${name}`, sources: [], confidenceScore: 0.9 } };
    });
    const [row] = await addRows(t.app, base.baseId, [{ Name: "Ada" }]);
    let [done] = await settled(t.app, base.baseId);
    expect(done.cells.Bio.value).toBe("bio of Ada");
    expect(done.cells.Loud.value).toBe("BIO OF ADA");
    expect(done.cells.Check).toMatchObject({ status: "done", value: "checked BIO OF ADA" });

    // A reviewer's correction recomputes the formula too (its readers go stale, as on any edit).
    const review = await t.app.api("POST", `/api/v1/bases/${base.baseId}/review`, {
      body: { cells: [{ rowId: row.id, columnId: base.col.Bio, action: "edit", value: "a mathematician" }] },
    });
    expect(review.status, review.text).toBe(200);
    [done] = await settled(t.app, base.baseId);
    expect(done.cells.Loud.value).toBe("A MATHEMATICIAN");

    // A column a formula reads may become generated.
    const name = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: { name: "Title", type: "short-text" },
    });
    const f = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: { name: "Shout", fill: { kind: "formula", expression: "$uppercase(Title)" } },
    });
    expect(f.status, f.text).toBe(201);
    const toAi = await t.app.api("PATCH", `/api/v1/bases/${base.baseId}/columns/${name.body.id}`, {
      body: { isAiEnabled: true, instructions: "A job title.", inputColumns: ["Name"] },
    });
    expect(toAi.status, toAi.text).toBe(200);
  });
});
