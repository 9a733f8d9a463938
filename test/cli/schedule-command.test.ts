import { afterAll, beforeAll, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { startEdgeServer, type EdgeServer } from "../support/edge-server.ts";
import { waitRun } from "../engine/runs-helpers.ts";
import { addRows, answer, COLUMNS, useScheduleApp } from "../schedules/helpers.ts";
import { runCli } from "../../lib/cli/run.ts";

// `npm run cli -- schedule list|create|trigger` against a server over real HTTP (the app's route
// handlers behind a node:http server, its engine on the fake model); and the mistakes it refuses
// before calling the server.

const t = useScheduleApp();
let server: EdgeServer;

beforeAll(async () => {
  server = await startEdgeServer();
});
afterAll(() => server.close());

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ["schedule", ...args, "--url", server.url],
    { CELLWRIGHT_API_KEY: t.app.keyA },
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    },
  );
  return { code, out, err };
}

it("creates a schedule, lists it, and triggers it into a run", async () => {
  const { baseId, col } = await createBase(t.app, { columns: COLUMNS });
  t.llm.setHandler(() => answer("Rockets"));
  const { runId } = await addRows(t.app, baseId, ["Acme", "Globex"]);
  await waitRun(t.app, runId!, (r) => r.status === "done", "the first run");

  const created = await cli([
    "create",
    "--base",
    baseId,
    "--name",
    "Nightly",
    "--cron",
    "0 3 * * *",
    "--timezone",
    "Europe/Paris",
    "--columns",
    col.Industry,
    "--below-confidence",
    "0.95",
    "--max-credits",
    "50",
    "--json",
  ]);
  expect(created.code, created.err.join("\n")).toBe(0);
  const schedule = JSON.parse(created.out[0]);
  expect(schedule).toMatchObject({
    name: "Nightly",
    cron: "0 3 * * *",
    timezone: "Europe/Paris",
    columnIds: [col.Industry],
    rows: { belowConfidence: 0.95 },
    maxCredits: 50,
  });

  const listed = await cli(["list", "--base", baseId]);
  expect(listed.code).toBe(0);
  expect(listed.out[0]).toMatch(/^ID\s+NAME\s+BEHAVIOR\s+WHEN\s+NEXT\s+LAST$/);
  expect(listed.out[1]).toContain(schedule.id);
  expect(listed.out[1]).toContain("0 3 * * * (Europe/Paris)");

  const triggered = await cli(["trigger", "--base", baseId, "--schedule", schedule.id]);
  expect(triggered.code, triggered.err.join("\n")).toBe(0);
  const [, id] = /^Run (run_\w+) started: 2 cell\(s\) queued\.$/.exec(triggered.out[0]) ?? [];
  expect(id).toBeDefined();
  const run = await waitRun(t.app, id, (r) => r.status === "done", "the triggered run");
  expect(run).toMatchObject({ trigger: "schedule", scheduleId: schedule.id });

  const tooOften = await cli(["create", "--base", baseId, "--every", "5m"]);
  expect(tooOften.code).not.toBe(0);
  expect(tooOften.err.join("\n")).toContain("invalid_schedule");
});

it("refuses a call that names both or neither of --cron and --every, or two row selections", async () => {
  for (const args of [
    ["create", "--base", "b"],
    ["create", "--base", "b", "--cron", "0 3 * * *", "--every", "1d"],
    ["create", "--base", "b", "--every", "1d", "--older-than-days", "3", "--below-confidence", "0.5"],
    ["create", "--base", "b", "--every", "1d", "--filter", "{not json"],
  ]) {
    const res = await cli(args);
    expect(res.code, args.join(" ")).toBe(64);
  }
});
