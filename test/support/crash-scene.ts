import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeLlm, type FakeLlm } from "./fake-llm.ts";
import type { ServerProcess } from "./server-process.ts";

// What the kill -9 suites share: a fake model answering after `latencyMs`, a data directory of their
// own for the embedded database, and the settings a server process starts with on them.

export interface CrashScene {
  llm: FakeLlm;
  dataDir: string;
  /** The settings of a server on this scene, keyed by `key`, with `slots` model calls at a time. */
  env(key: string, slots: number): Record<string, string>;
  /** Kills the server still running, stops the model and removes the data directory. */
  close(server: ServerProcess | undefined): Promise<void>;
}

export async function openCrashScene(latencyMs: number, name: string): Promise<CrashScene> {
  const llm = await startFakeLlm({ latencyMs });
  const dataDir = mkdtempSync(path.join(tmpdir(), `cw-${name}-`));
  return {
    llm,
    dataDir,
    env: (key, slots) => ({
      DATA_DIR: dataDir,
      API_KEY: key,
      OPENAI_BASE_URL: llm.baseUrl,
      AI_MODEL: "openai:fake",
      AI_CONCURRENCY: String(slots),
    }),
    async close(server) {
      await server?.kill9();
      await llm.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
