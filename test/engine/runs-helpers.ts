import type { TestApp } from "../support/app.ts";
import { waitFor } from "../support/wait.ts";

export type Run = {
  id: string;
  status: string;
  counts: { pending: number; running: number; done: number; error: number; cancelled: number };
  creditsSpent: number;
  maxCredits: number | null;
  pausedReason: string | null;
  finishedAt: string | null;
};

export async function getRun(app: TestApp, runId: string, key?: string): Promise<Run> {
  const res = await app.api("GET", `/api/v1/runs/${runId}`, { key });
  if (res.status !== 200) throw new Error(`GET run: ${res.status} ${res.text}`);
  return res.body;
}

/** Waits until the run satisfies `pred`, and returns it. */
export function waitRun(
  app: TestApp,
  runId: string,
  pred: (r: Run) => boolean,
  what: string,
  timeoutMs = 20_000,
  key?: string,
): Promise<Run> {
  return waitFor(
    async () => {
      const r = await getRun(app, runId, key);
      return pred(r) ? r : undefined;
    },
    what,
    timeoutMs,
  );
}

/** Adds rows and returns the run they queued. */
export async function addRowsRun(
  app: TestApp,
  baseId: string,
  rows: Record<string, string>[],
  key?: string,
): Promise<{ runId: string; rowIds: string[] }> {
  const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    key,
    body: { rows: rows.map((cells) => ({ cells })) },
  });
  if (res.status !== 200) throw new Error(`add-rows: ${res.status} ${res.text}`);
  return { runId: res.body.runId, rowIds: res.body.rows.map((r: { id: string }) => r.id) };
}

/** The charges for cell answers in a workspace. */
export async function cellCharges(app: TestApp, workspaceId: string): Promise<number> {
  return app.rt.db.prisma.creditEntry.count({ where: { workspaceId, reason: "cell_run" } });
}

export const rowsOf = (n: number, prefix = "Company") =>
  Array.from({ length: n }, (_, i) => ({ Company: `${prefix} ${i}` }));
