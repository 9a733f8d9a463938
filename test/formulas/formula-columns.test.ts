import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { addRows, expandedRows, settled, useEngineApp } from "../engine/helpers.ts";

// Formula columns over the API, with the engine running: values are computed in the write itself
// (no cell, no queue, no model call, no credits), follow their inputs on every write path, and
// feed AI columns that read them.

const t = useEngineApp({ AI_CONCURRENCY: "2" });

const people = [
  { name: "Email", type: "email", isPrimary: true },
  { name: "First", type: "short-text" },
  { name: "Last", type: "short-text" },
  { name: "Price", type: "number" },
  { name: "Quantity", type: "number" },
  { name: "Domain", type: "short-text", fill: { kind: "formula", expression: '$substringAfter(Email, "@")' } },
  { name: "Full name", type: "short-text", fill: { kind: "formula", expression: '$join([First, Last], " ")' } },
  { name: "Total", type: "number", fill: { kind: "formula", expression: "Price * Quantity" } },
  { name: "Shout", type: "short-text", fill: { kind: "formula", expression: "$uppercase(`Full name`)" } },
];

const ledger = async () =>
  Number(
    (
      await t.app.rt.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT count(*) AS n FROM credit_entries WHERE workspace_id = $1 AND amount < 0`,
        t.app.workspaceA,
      )
    )[0].n,
  );

describe("formula columns", () => {
  it("computes values in Add Rows and Update Rows, chained, typed, with no cell and no charge", async () => {
    const base = await createBase(t.app, { columns: people });
    const col = base.structure.sheetColumns.find((c: { name: string }) => c.name === "Domain");
    expect(col).toMatchObject({ isAiEnabled: false, fill: { kind: "formula" }, inputColumnIds: [base.col.Email] });
    const before = await ledger();
    const [row] = await addRows(t.app, base.baseId, [
      { Email: "ada@example.com", First: "Ada", Last: "Lovelace", Price: "2.5", Quantity: "4" },
    ]);
    expect(row.cells).toMatchObject({
      Domain: "example.com",
      "Full name": "Ada Lovelace",
      Total: "10",
      Shout: "ADA LOVELACE",
    });

    const upd = await t.app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { Last: "King", Quantity: "" } }] },
    });
    expect(upd.status, upd.text).toBe(200);
    const [after] = await expandedRows(t.app, base.baseId);
    expect(after.cells["Full name"]).toMatchObject({ value: "Ada King" });
    expect(after.cells.Shout.value).toBe("ADA KING");
    // Price * (no value) has no value: the cell is empty, not 0 and not an error.
    expect(after.cells.Total.value).toBe("");
    expect(after.cells.Domain.status).toBeUndefined();
    const cells = await t.app.rt.db.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM cells WHERE row_id = $1`, row.id);
    expect(cells).toHaveLength(0);
    expect(await ledger()).toBe(before);
    expect(t.llm.requests).toHaveLength(0);
  });

  it("refuses a value written into a formula column, and changes nothing", async () => {
    const base = await createBase(t.app, { columns: people });
    const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
      body: { rows: [{ cells: { Email: "a@b.co", Domain: "forged.example" } }] },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("formula column");
    expect(await expandedRows(t.app, base.baseId)).toHaveLength(0);
  });

  it("fills existing rows when a formula column is added or changed, and follows renames", async () => {
    const base = await createBase(t.app, { columns: people.slice(0, 5) });
    await addRows(t.app, base.baseId, [{ Email: "x@one.test" }, { Email: "y@two.test" }]);
    const created = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: { name: "Host", fill: { kind: "formula", expression: '$substringAfter(Email, "@")' } },
    });
    expect(created.status, created.text).toBe(201);
    let rows = await expandedRows(t.app, base.baseId);
    expect(rows.map((r) => r.cells.Host.value)).toEqual(["one.test", "two.test"]);

    const changed = await t.app.api("PATCH", `/api/v1/bases/${base.baseId}/columns/${created.body.id}`, {
      body: { fill: { kind: "formula", expression: '$uppercase($substringBefore(Email, "@"))' } },
    });
    expect(changed.status, changed.text).toBe(200);
    rows = await expandedRows(t.app, base.baseId);
    expect(rows.map((r) => r.cells.Host.value)).toEqual(["X", "Y"]);

    const renamed = await t.app.api("PATCH", `/api/v1/bases/${base.baseId}/columns/${base.col.Email}`, {
      body: { name: "Work email" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const host = (await t.app.api("GET", `/api/v1/bases/${base.baseId}/base-structure`)).body.sheetColumns.find(
      (c: { name: string }) => c.name === "Host",
    );
    expect(host.fill.expression).toBe('$uppercase($substringBefore(`Work email`, "@"))');
    await addRows(t.app, base.baseId, [{ "Work email": "zed@three.test" }]);
    rows = await expandedRows(t.app, base.baseId);
    expect(rows[2].cells.Host.value).toBe("ZED");

    // Turning it back into a column entered by hand keeps the values and lets them be written.
    const manual = await t.app.api("PATCH", `/api/v1/bases/${base.baseId}/columns/${created.body.id}`, {
      body: { fill: null },
    });
    expect(manual.status, manual.text).toBe(200);
    expect(manual.body).toMatchObject({ inputColumnIds: [], fill: null });
    await addRows(t.app, base.baseId, [{ "Work email": "w@four.test", Host: "typed" }]);
    expect((await expandedRows(t.app, base.baseId))[3].cells.Host.value).toBe("typed");
  });

  it("feeds AI columns that read it, re-running them only when its value changes", async () => {
    const base = await createBase(t.app, {
      columns: [
        ...people.slice(0, 3),
        people[6],
        {
          name: "Greeting",
          type: "short-text",
          isAiEnabled: true,
          inputColumns: ["Full name"],
          instructions: "Greet the person.",
        },
      ],
    });
    t.llm.setHandler((req) => {
      const name = /"Full name": "([^"]*)"/.exec(req.lastUserText)?.[1] ?? "?";
      return { json: { value: `Hello ${name}`, sources: [], confidenceScore: 0.9 } };
    });
    const [row] = await addRows(t.app, base.baseId, [{ Email: "g@h.io", First: "Grace", Last: "Hopper" }]);
    let [done] = await settled(t.app, base.baseId);
    expect(done.cells.Greeting.value).toContain("Grace Hopper");
    expect(t.llm.requests).toHaveLength(1);

    // Email is not an input of the formula: nothing re-runs.
    await t.app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { Email: "grace@h.io" } }] },
    });
    await settled(t.app, base.baseId);
    expect(t.llm.requests).toHaveLength(1);

    await t.app.api("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      body: { rows: [{ id: row.id, cells: { First: "Admiral Grace" } }] },
    });
    [done] = await settled(t.app, base.baseId);
    expect(done.cells.Greeting.value).toContain("Admiral Grace Hopper");
    expect(t.llm.requests).toHaveLength(2);
  });

  it("refuses bad formulas with invalid_formula, and changes nothing", async () => {
    const base = await createBase(t.app, {
      columns: [
        ...people.slice(0, 2),
        { name: "Bio", type: "long-text", isAiEnabled: true, inputColumns: ["First"], instructions: "A bio." },
      ],
    });
    const bad = async (expression: string, extra: Record<string, unknown> = {}) => {
      const res = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
        body: { name: "F", fill: { kind: "formula", expression }, ...extra },
      });
      return res;
    };
    for (const [expression, text] of [
      ["$substringAfter(Email", "does not parse"],
      ["Emial", 'names "Emial"'],
      ["$match(Email, /(a+)+$/)", "regular expressions"],
      ['$eval("1+1")', "$eval"],
      ["$now()", "$now"],
    ]) {
      const res = await bad(expression);
      expect(res.status, expression).toBe(400);
      expect(res.body.error.code).toBe("invalid_formula");
      expect(res.body.error.message).toContain(text);
    }
    const both = await bad("First", { isAiEnabled: true });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe("validation_failed");
    const self = await t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, {
      body: { name: "Loop", fill: { kind: "formula", expression: "Loop" } },
    });
    expect(self.body.error.code).toBe("invalid_formula");
    const structure = (await t.app.api("GET", `/api/v1/bases/${base.baseId}/base-structure`)).body;
    expect(structure.sheetColumns.map((c: { name: string }) => c.name)).toEqual(["Email", "First", "Bio"]);
  });

  it("leaves a row empty when its formula fails for it, and keeps the others", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Label", type: "short-text", isPrimary: true },
        { name: "Half", type: "number", fill: { kind: "formula", expression: "Label / 2" } },
      ],
    });
    await addRows(t.app, base.baseId, [{ Label: "8" }, { Label: "eight" }]);
    const rows = await expandedRows(t.app, base.baseId);
    expect(rows.map((r) => r.cells.Half.value)).toEqual(["", ""]);
    const numeric = await createBase(t.app, {
      columns: [
        { name: "N", type: "number", isPrimary: true },
        { name: "Half", type: "number", fill: { kind: "formula", expression: "N / 2" } },
        { name: "Loop", type: "number", fill: { kind: "formula", expression: "$sum([1..N])" } },
      ],
    });
    await addRows(t.app, numeric.baseId, [{ N: "8" }, { N: "9999999" }]);
    const out = await expandedRows(t.app, numeric.baseId);
    expect(out.map((r) => r.cells.Half.value)).toEqual(["4", "4999999.5"]);
    expect(out[0].cells.Loop.value).toBe("36");
  });
});
