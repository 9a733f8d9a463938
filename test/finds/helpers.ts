import { afterAll, beforeAll } from "vitest";
import type { TestApp } from "../support/app.ts";
import { startFakeWorld, type FakeWorld } from "../support/fake-world.ts";
import { useAppWithFakeLlm } from "../support/llm-app.ts";
import { waitFor } from "../support/wait.ts";
import type { HostLookup } from "../../lib/net/index.ts";

// The finds suites' app: the engine on a fake model, searching a fake world of companies whose
// sites its URL guard reaches through the world's resolver.

export function useFindApp(opts: { credits?: number } = {}) {
  const w = {} as { world: FakeWorld };
  beforeAll(async () => {
    w.world = await startFakeWorld();
  });
  const lookup: HostLookup = (host, ...rest) => w.world.lookup(host, ...rest);
  const t = useAppWithFakeLlm(
    (url) => ({
      OPENAI_BASE_URL: url,
      AI_MODEL: "openai:test-model",
      AI_RETRY_BASE_MS: "20",
      AI_CONCURRENCY: "4",
      ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
      SEARCH_PROVIDER: "searxng",
      SEARCH_BASE_URL: w.world.searchUrl,
      SEARCH_MAX_RESULTS: "10",
    }),
    { engine: { tools: { lookup } }, ...opts },
  );
  afterAll(() => w.world?.close());
  return Object.defineProperty(t, "world", { get: () => w.world }) as typeof t & { readonly world: FakeWorld };
}

/** Waits until the find has stopped (phase done, or paused), and returns it. */
export async function stopped(app: TestApp, baseId: string, findId: string, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const res = await app.api("GET", `/api/v1/bases/${baseId}/finds/${findId}`);
      if (res.status !== 200) throw new Error(`GET find: ${res.status} ${res.text}`);
      return res.body.phase === "done" || res.body.status === "paused" ? res.body : undefined;
    },
    "the find to stop",
    timeoutMs,
  );
}

export async function candidates(app: TestApp, baseId: string, findId: string, status?: string) {
  const res = await app.api(
    "GET",
    `/api/v1/bases/${baseId}/finds/${findId}/candidates?limit=200${status ? `&status=${status}` : ""}`,
  );
  if (res.status !== 200) throw new Error(`candidates: ${res.status} ${res.text}`);
  return res.body.candidates as {
    id: string;
    name: string;
    url: string | null;
    key: string;
    status: string;
    rowId: string | null;
    credits: number;
    verdicts: { criterionId: string; satisfied: string; sources: { url: string; excerpt: string }[] }[];
  }[];
}
