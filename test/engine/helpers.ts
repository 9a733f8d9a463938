import type { TestApp } from "../support/app.ts";
import { useAppWithFakeLlm } from "../support/llm-app.ts";
import { waitFor } from "../support/wait.ts";
import type { Env } from "../../lib/config.ts";

export async function addRows(app: TestApp, baseId: string, rows: Record<string, unknown>[]) {
  const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
    body: { rows: rows.map((cells) => ({ cells })) },
  });
  if (res.status !== 200) throw new Error(`addRows: ${res.status} ${res.text}`);
  return res.body.rows as { id: string; cells: Record<string, string> }[];
}

export async function expandedRows(app: TestApp, baseId: string) {
  return (await app.api("GET", `/api/v1/bases/${baseId}/rows?expand=true`)).body.rows as {
    id: string;
    cells: Record<
      string,
      { value: string; status?: string; metadata?: any; error?: { code: string; message: string }; stale?: true }
    >;
  }[];
}

/** Waits until no AI cell of the base is pending or running, and returns the expanded rows. */
export async function settled(app: TestApp, baseId: string, timeoutMs = 20_000) {
  return waitFor(
    async () => {
      const rows = await expandedRows(app, baseId);
      const open = rows.some((r) =>
        Object.values(r.cells).some((c) => c.status === "pending" || c.status === "running"),
      );
      return open ? undefined : rows;
    },
    "every AI cell to settle",
    timeoutMs,
  );
}

/** The engine suites' app: the engine running on a fresh fake LLM (see useAppWithFakeLlm). */
export function useEngineApp(env: Env = {}, opts: { credits?: number } = {}) {
  return useAppWithFakeLlm(
    (url) => ({ OPENAI_BASE_URL: url, AI_MODEL: "openai:test-model", AI_RETRY_BASE_MS: "20", ...env }),
    { engine: true, ...opts },
  );
}
