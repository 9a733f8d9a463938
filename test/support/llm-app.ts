import { afterAll, afterEach, beforeAll } from "vitest";
import { createTestApp, type TestApp } from "./app.ts";
import { startFakeLlm, type FakeLlm } from "./fake-llm.ts";
import type { Env } from "../../lib/config.ts";
import type { EngineOptions } from "../../lib/engine/engine.ts";

/**
 * A test app talking to a fresh fake LLM, made before the file's tests and closed after them;
 * the LLM's script is reset after each test. `env` gets the fake's base URL.
 */
export function useAppWithFakeLlm(
  env: (llmUrl: string) => Env,
  opts: { credits?: number; engine?: boolean | EngineOptions } = {},
) {
  const t = {} as { app: TestApp; llm: FakeLlm };
  beforeAll(async () => {
    t.llm = await startFakeLlm();
    t.app = await createTestApp(env(t.llm.baseUrl), opts);
  });
  afterAll(async () => {
    await t.app?.close();
    await t.llm?.close();
  });
  afterEach(() => {
    t.llm.reset();
    t.llm.setHandler(undefined);
  });
  return t;
}
