import { expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { addRows, settled, useEngineApp } from "../engine/helpers.ts";
import { call, callError, useMcpClients } from "../mcp/helpers.ts";
import { HISTORY_TOOLS } from "../../lib/mcp/history-tools.ts";

// The history tools over MCP, as an agent uses them: read a row's changes, undo one, undo a run
// (counting first); and another workspace's key reaches none of it.

const t = useEngineApp({ AI_MAX_ATTEMPTS: "1" });
const mcp = useMcpClients(() => t.app);

it("reads a row's history, reverts a change and a run; another workspace's key finds nothing", async () => {
  expect(HISTORY_TOOLS.map((x) => x.name)).toEqual(["row_history", "revert_cell", "revert_run"]);
  let answer = "Rockets";
  t.llm.setHandler(() => ({ json: { value: answer, sources: [], confidenceScore: 0.8 } }));
  const { baseId, col } = await createBase(t.app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Industry", isAiEnabled: true, inputColumns: ["Company"], instructions: "The industry." },
    ],
  });
  const [{ id: rowId }] = await addRows(t.app, baseId, [{ Company: "Acme" }]);
  await settled(t.app, baseId);
  answer = "Satellites";
  const run = await t.app.api("POST", `/api/v1/bases/${baseId}/run`, { body: { force: true } });
  await settled(t.app, baseId);

  const history = await call(mcp.a, "row_history", { baseId, rowId, columnId: col.Industry });
  expect(history.result.entries.map((e: any) => e.after.value)).toEqual(["Satellites", "Rockets"]);
  expect(history.text).toBe("2 changes.");
  const dry = await call(mcp.a, "revert_run", { runId: run.body.runId, dryRun: true });
  expect(dry.text).toBe(`Would revert 1 cell in 1 row of run ${run.body.runId}.`);
  const reverted = await call(mcp.a, "revert_cell", {
    baseId,
    rowId,
    columnId: col.Industry,
    historyId: history.result.entries[0].id,
  });
  expect(reverted.result.revertedTo.value).toBe("Rockets");

  for (const [name, args] of [
    ["row_history", { baseId, rowId }],
    ["revert_cell", { baseId, rowId, columnId: col.Industry, historyId: history.result.entries[0].id }],
  ] as const)
    expect((await callError(mcp.b, name, args)).code, name).toBe("base_not_found");
  expect((await callError(mcp.b, "revert_run", { runId: run.body.runId })).code).toBe("run_not_found");
  expect((await t.app.api("GET", `/api/v1/bases/${baseId}/rows/${rowId}?expand=true`)).body.cells.Industry.value).toBe(
    "Rockets",
  );
});
