import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { TARGET_QUERY } from "../support/fake-world.ts";
import { waitFor } from "../support/wait.ts";
import { worldModel } from "../support/world-model.ts";
import { useFindApp } from "../finds/helpers.ts";
import { call, callError, useMcpClients } from "./helpers.ts";
import { FIND_TOOLS } from "../../lib/mcp/tools.ts";

// The find tools over MCP, as an agent uses them: preview, read the candidates, extend, follow;
// and another workspace's key reaches none of it.

const t = useFindApp();
const mcp = useMcpClients(() => t.app);

const until = (baseId: string, findId: string, done: (f: any) => boolean) =>
  waitFor(
    async () => {
      const { result, text } = await call(mcp.a, "get_find", { baseId, findId });
      return done(result) ? { result, text } : undefined;
    },
    "the find to stop",
    60_000,
  );

describe("find tools", () => {
  it("are listed with their schemas, and find_rows tells the agent to preview first", async () => {
    const { tools } = await mcp.a.listTools();
    const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
    expect(FIND_TOOLS.map((x) => x.name)).toEqual(["find_rows", "get_find", "find_candidates", "extend_find"]);
    for (const name of ["find_rows", "get_find", "find_candidates", "extend_find"]) expect(byName[name]).toBeDefined();
    expect(byName.find_rows.description).toMatch(/preview: true/);
    expect(byName.find_rows.description).toContain("extend_find");
    expect(byName.find_rows.inputSchema.required).toEqual(
      expect.arrayContaining(["baseId", "query", "criteria", "count"]),
    );
    expect(byName.find_rows.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect((byName.find_candidates.inputSchema.properties as any).limit).toMatchObject({ maximum: 100 });
  });

  it("previews, lists what it verified, extends, and keeps another workspace out", async () => {
    t.llm.setHandler(worldModel());
    const { baseId } = await createBase(t.app, {
      columns: [
        { name: "Company", type: "short-text", isPrimary: true },
        { name: "Website", type: "url" },
      ],
    });
    const criteria = ["Based in Berlin", "Makes software"];
    const started = await call(mcp.a, "find_rows", { baseId, query: TARGET_QUERY, criteria, count: 3, preview: true });
    expect(started.result).toMatchObject({ baseId, preview: true, count: 3 });
    expect(started.text).toContain(started.result.id);
    const findId = started.result.id;

    const preview = await until(baseId, findId, (f) => f.phase === "done");
    expect(preview.result).toMatchObject({ stopReason: "preview" });
    expect(preview.result.candidates.added).toBe(0);
    expect(preview.text).toContain("extend_find");

    const matched = await call(mcp.a, "find_candidates", { baseId, findId, status: "matched", limit: 2 });
    expect(matched.result.candidates.length).toBeGreaterThan(0);
    expect(matched.result.candidates.length).toBeLessThanOrEqual(2);
    for (const c of matched.result.candidates) {
      expect(c.status).toBe("matched");
      expect(c.verdicts.map((v: { satisfied: string }) => v.satisfied)).toEqual(["yes", "yes"]);
      expect(c.verdicts[0].sources.length).toBeGreaterThan(0);
    }

    // Not found either way (a foreign base's find reads as no such find): nothing seen, nothing started.
    for (const [name, args] of [
      ["get_find", { baseId, findId }],
      ["find_candidates", { baseId, findId }],
      ["extend_find", { baseId, findId, count: 1 }],
      ["find_rows", { baseId, query: TARGET_QUERY, criteria, count: 1 }],
    ] as const)
      expect((await callError(mcp.b, name, args)).code, name).toMatch(/^(base|find)_not_found$/);

    const extended = await call(mcp.a, "extend_find", { baseId, findId, count: 3 });
    expect(extended.result).toMatchObject({ id: findId, preview: false });
    expect(extended.result.runId).not.toBe(started.result.runId);
    const done = await until(baseId, findId, (f) => f.phase === "done");
    expect(done.result).toMatchObject({ stopReason: "target" });
    expect(done.result.candidates.added).toBe(3);
    expect(done.text).toContain("3 of 3 added");
    expect((await callError(mcp.a, "get_find", { baseId, findId: "find_nope" })).code).toBe("find_not_found");
  });
});
