import type { TestApp } from "../support/app.ts";
import type { TestBase } from "../support/bases.ts";
import { settled } from "../engine/helpers.ts";

// The history suites' requests: a row's changes, a cell's revert, a run's revert, a re-run.

export const historyOf = async (app: TestApp, base: TestBase, rowId: string, query = "") => {
  const res = await app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowId}/history${query}`);
  if (res.status !== 200) throw new Error(`history: ${res.status} ${res.text}`);
  return res.body.entries as any[];
};

export const revertCell = (app: TestApp, base: TestBase, rowId: string, columnId: string, historyId: string) =>
  app.api("POST", `/api/v1/bases/${base.baseId}/rows/${rowId}/cells/${columnId}/revert`, { body: { historyId } });

export const revertRun = (app: TestApp, runId: string, dryRun = false) =>
  app.api("POST", `/api/v1/runs/${runId}/revert`, { body: { dryRun } });

/** Runs the columns again (forced) and waits for them; answers the run's id. */
export async function rerun(app: TestApp, base: TestBase, columnIds: string[], rowIds?: string[]) {
  const res = await app.api("POST", `/api/v1/bases/${base.baseId}/run`, { body: { columnIds, rowIds, force: true } });
  if (res.status !== 202 && res.status !== 200) throw new Error(`run: ${res.status} ${res.text}`);
  await settled(app, base.baseId);
  return res.body.runId as string;
}

export const cellOf = async (app: TestApp, base: TestBase, rowId: string, column: string) =>
  (await app.api("GET", `/api/v1/bases/${base.baseId}/rows/${rowId}?expand=true`)).body.cells[column];
