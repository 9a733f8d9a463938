import { expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import { addRows, answer, COLUMNS, useScheduleApp } from "../schedules/helpers.ts";
import { call, callError, useMcpClients } from "./helpers.ts";
import { SCHEDULE_TOOLS } from "../../lib/mcp/tools.ts";

// The schedule tools over MCP, as an agent uses them: make one, list it, run it now; and another
// workspace's key reaches none of it.

const t = useScheduleApp();
const mcp = useMcpClients(() => t.app);

it("creates, lists and triggers a schedule; another workspace's key finds no base", async () => {
  expect(SCHEDULE_TOOLS.map((x) => x.name)).toEqual(["list_schedules", "create_schedule", "trigger_schedule"]);
  const { baseId, col } = await createBase(t.app, { columns: COLUMNS });
  t.llm.setHandler(() => answer("Rockets"));
  const { runId } = await addRows(t.app, baseId, ["Acme"]);
  await waitRun(t.app, runId!, (r) => r.status === "done", "the first run");

  const created = await call(mcp.a, "create_schedule", {
    baseId,
    every: "1d",
    columnIds: [col.Industry],
    name: "Daily",
  });
  expect(created.result).toMatchObject({ name: "Daily", every: 86_400, columnIds: [col.Industry] });
  expect(created.text).toContain(`Scheduled ${created.result.id} "Daily": refresh, every 86400 s`);
  const listed = await call(mcp.a, "list_schedules", { baseId });
  expect(listed.result.schedules.map((s: { id: string }) => s.id)).toEqual([created.result.id]);
  const triggered = await call(mcp.a, "trigger_schedule", { baseId, scheduleId: created.result.id });
  expect(triggered.result).toMatchObject({ outcome: "started", queued: 1, run: { trigger: "schedule" } });
  await waitRun(t.app, triggered.result.run.id, (r) => r.status === "done", "the triggered run");

  for (const [name, args] of [
    ["list_schedules", { baseId }],
    ["create_schedule", { baseId, every: "1d" }],
    ["trigger_schedule", { baseId, scheduleId: created.result.id }],
  ] as const)
    expect((await callError(mcp.b, name, args)).code, name).toBe("base_not_found");
  expect(await t.app.rt.db.prisma.schedule.count({ where: { baseId } })).toBe(1);
});
