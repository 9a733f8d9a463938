import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { makeKey } from "../support/principals.ts";
import { TARGET_QUERY } from "../support/fake-world.ts";
import { worldModel } from "../support/world-model.ts";
import { settled } from "../engine/helpers.ts";
import { stopped, useFindApp } from "./helpers.ts";

// The finds endpoints' contract: bad requests refused with stable codes and nothing started,
// another workspace's finds invisible, spending refused without runs:write, a find extended only
// once it has stopped, and a criterion cell re-verified like any AI cell.

const t = useFindApp();
const body = { query: TARGET_QUERY, criteria: ["Based in Berlin"], count: 2 };

describe("finds API", () => {
  it("refuses bad requests, other workspaces and keys that may not spend, and changes nothing", async () => {
    const b = await createBase(t.app, { columns: [{ name: "Company", type: "short-text", isPrimary: true }] });
    const path = `/api/v1/bases/${b.baseId}/finds`;
    for (const bad of [
      { ...body, criteria: [] },
      { ...body, count: 0 },
      { ...body, criteria: Array.from({ length: 11 }, (_, i) => `c${i}`) },
      { ...body, query: "" },
      { ...body, surprise: true },
      { ...body, maxCredits: 2_000_000_000 },
    ]) {
      const res = await t.app.api("POST", path, { body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await t.app.api("POST", path, { key: t.app.keyB, body })).status).toBe(404);
    const reader = await makeKey(t.app.rt, t.app.workspaceA, { scopes: ["rows:read", "rows:write"] });
    const refused = await t.app.api("POST", path, { key: reader, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("insufficient_scope");
    const list = await t.app.api("GET", path);
    expect(list.body.finds).toEqual([]);
    const structure = await t.app.api("GET", `/api/v1/bases/${b.baseId}/base-structure`);
    expect(structure.body.sheetColumns).toHaveLength(1);

    t.llm.setHandler(worldModel());
    const started = await t.app.api("POST", path, { body });
    expect(started.status, started.text).toBe(202);
    const one = `${path}/${started.body.id}`;
    expect((await t.app.api("GET", one, { key: t.app.keyB })).status).toBe(404);
    expect((await t.app.api("GET", `${path}/find_nope`)).body.error.code).toBe("find_not_found");
    const typo = await t.app.api("GET", `${one}/candidates?status=rejectd`);
    expect(typo.status).toBe(400);
    expect(typo.body.error.code).toBe("invalid_query");
    const early = await t.app.api("POST", `${one}/extend`, { body: { count: 1 } });
    if (early.status !== 202) expect(early.body.error.code).toBe("find_in_progress");
    await stopped(t.app, b.baseId, started.body.id);
  });

  it("re-verifies a criterion cell as an AI cell, on the row's own pages", async () => {
    t.llm.setHandler(worldModel());
    const b = await createBase(t.app, {
      columns: [
        { name: "Company", type: "short-text", isPrimary: true },
        { name: "Website", type: "url" },
      ],
    });
    const started = await t.app.api("POST", `/api/v1/bases/${b.baseId}/finds`, { body: { ...body, count: 1 } });
    const find = await stopped(t.app, b.baseId, started.body.id);
    expect(find.candidates.added).toBe(1);
    const column = find.criteria[0].columnId as string;
    const structure = await t.app.api("GET", `/api/v1/bases/${b.baseId}/base-structure`);
    const criterion = structure.body.sheetColumns.find((c: { id: string }) => c.id === column);
    expect(criterion).toMatchObject({
      name: "Based in Berlin",
      type: "select",
      isAiEnabled: true,
      columnOptions: { options: ["yes", "no", "unclear"], autoRun: "never" },
    });
    expect(criterion.tools.map((x: { name: string }) => x.name)).toEqual(["scrape-url", "web-search"]);

    t.llm.setHandler((req) =>
      req.system.startsWith("You fill in one cell")
        ? { json: { value: "no", sources: [], confidenceScore: 0.8, additionalDetails: "Moved to Munich." } }
        : undefined,
    );
    const run = await t.app.api("POST", `/api/v1/bases/${b.baseId}/run`, { body: { columnIds: [column] } });
    expect(run.status, run.text).toBe(202);
    const [row] = await settled(t.app, b.baseId);
    expect(row.cells["Based in Berlin"]).toMatchObject({ value: "no", status: "done" });
    const cellCall = t.llm.requests.find((r) => r.system.startsWith("You fill in one cell"))!;
    expect(cellCall.lastUserText).toContain(row.cells.Website.value);
  });
});
