import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { addRows, settled, useEngineApp } from "./helpers.ts";

// An HTTP column's extra outputs: one answer writes other columns of the row, typed as they store
// values; formulas over them follow at once, and a column reading one waits for the writer's cell.

const t = useEngineApp({ AI_CONCURRENCY: "4", ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider((r) => {
    if (r.path === "/check") return { json: { ok: `checked ${r.query.get("industry")}` } };
    const domain = r.query.get("domain") ?? "";
    if (domain.startsWith("gone")) return { status: 404, json: {} };
    return {
      delayMs: 50,
      json: { name: domain.split(".")[0].toUpperCase(), industry: "Software", employees: 120, founded: "soon" },
    };
  });
});
afterAll(() => provider.close());
beforeEach(() => provider.reset());

const companyColumn = (outputs: Record<string, string>) => ({
  name: "Company",
  fill: {
    kind: "http",
    request: { method: "GET", url: `${provider.url}/company?domain={{Domain}}` },
    extract: "name",
    outputs,
  },
});

const columnsOf = async (baseId: string) =>
  (await t.app.api("GET", `/api/v1/bases/${baseId}/base-structure`)).body.sheetColumns as {
    id: string;
    name: string;
    fill: { outputs?: Record<string, string> } | null;
  }[];

describe("HTTP column outputs", () => {
  it("write other columns of the row; formulas follow and readers wait for the writer", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        { name: "Industry", type: "short-text" },
        { name: "Size", type: "number" },
        { name: "Founded", type: "date" },
        companyColumn({ Industry: "industry", Size: "employees", Founded: "founded" }),
        { name: "Label", fill: { kind: "formula", expression: 'Industry & " at " & Domain' } },
        {
          name: "Check",
          fill: {
            kind: "http",
            request: { method: "GET", url: `${provider.url}/check?industry={{Label}}` },
            extract: "ok",
          },
        },
      ],
    });
    // Check reads Label, a formula over Industry, which Company writes: Check waits for Company.
    const stored = await t.app.rt.db.prisma.column.findUnique({ where: { id: base.col.Check } });
    expect(stored?.writerColumnIds).toEqual([base.col.Company]);

    await addRows(t.app, base.baseId, [{ Domain: "acme.example" }, { Domain: "gone.example", Industry: "Mine" }]);
    const rows = await settled(t.app, base.baseId);
    expect(rows[0].cells.Company).toMatchObject({ value: "ACME", status: "done" });
    expect(rows[0].cells.Industry).toMatchObject({ value: "Software" });
    expect(rows[0].cells.Size).toMatchObject({ value: "120" });
    // A value the column cannot hold is not written, and the cell says so.
    expect(rows[0].cells.Founded.value).toBe("");
    expect(rows[0].cells.Company.metadata.additionalDetails).toContain("Founded: the value does not fit a date column");
    expect(rows[0].cells.Label.value).toBe("Software at acme.example");
    expect(rows[0].cells.Check).toMatchObject({ value: "checked Software at acme.example", status: "done" });
    // A miss writes nothing: the row keeps what it had.
    expect(rows[1].cells.Company.status).toBe("not_found");
    expect(rows[1].cells.Industry.value).toBe("Mine");
    expect(rows[1].cells.Check.value).toBe("checked Mine at gone.example");
    // Each Check call came after its row's Company call.
    const order = provider.requests.map((r) => `${r.path}:${r.query.get("domain") ?? r.query.get("industry")}`);
    expect(order.indexOf("/check:Software at acme.example")).toBeGreaterThan(order.indexOf("/company:acme.example"));

    // The preview shows what the outputs would write.
    const preview = await t.app.api("POST", `/api/v1/bases/${base.baseId}/fill-preview`, {
      body: { fill: { ...companyColumn({ Industry: "industry", Size: "employees" }).fill }, rowId: rows[0].id },
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.outputs).toEqual({ Industry: "Software", Size: "120" });
  });

  it("refuse outputs that name no column, a generated column, a column written twice or a cycle", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        { name: "Industry", type: "short-text" },
        { name: "Upper", fill: { kind: "formula", expression: "$uppercase(Domain)" } },
        companyColumn({ Industry: "industry" }),
      ],
    });
    const post = (body: Record<string, unknown>) =>
      t.app.api("POST", `/api/v1/bases/${base.baseId}/columns`, { body: { ...body, name: "Other" } });
    const cases: [Record<string, string>, string, string][] = [
      [{ Nope: "x" }, "invalid_fill", "fill.outputs.Nope"],
      [{ Upper: "x" }, "invalid_fill", "fill.outputs.Upper"],
      [{ Industry: "x" }, "invalid_fill", "fill.outputs.Industry"],
      [{ Domain: "$eval('1')" }, "invalid_fill", "fill.outputs.Domain"],
    ];
    for (const [outputs, code, field] of cases) {
      const res = await post(companyColumn(outputs));
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code, details: { field } });
    }
    // Reading the column it writes (here through a formula) would be a cycle.
    const cyclic = await post({
      fill: {
        kind: "http",
        request: { method: "GET", url: `${provider.url}/company?domain={{Upper}}` },
        extract: "name",
        outputs: { Domain: "name" },
      },
    });
    expect(cyclic.status, cyclic.text).toBe(409);
    expect(cyclic.body.error.code).toBe("dependency_cycle");
    expect((await columnsOf(base.baseId)).map((c) => c.name)).toEqual(["Domain", "Industry", "Upper", "Company"]);
  });

  it("follow a renamed output column, and keep it from being deleted unless forced", async () => {
    const base = await createBase(t.app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        { name: "Industry", type: "short-text" },
        companyColumn({ Industry: "industry" }),
      ],
    });
    const renamed = await t.app.api("PATCH", `/api/v1/bases/${base.baseId}/columns/${base.col.Industry}`, {
      body: { name: "Sector" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const company = () => columnsOf(base.baseId).then((cs) => cs.find((c) => c.name === "Company")!);
    expect((await company()).fill?.outputs).toEqual({ Sector: "industry" });

    const path = `/api/v1/bases/${base.baseId}/columns/${base.col.Industry}`;
    const refused = await t.app.api("DELETE", path);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error.code).toBe("column_in_use");
    const forced = await t.app.api("DELETE", `${path}?force=true`);
    expect(forced.status, forced.text).toBe(200);
    expect((await company()).fill?.outputs).toEqual({});
  });
});
