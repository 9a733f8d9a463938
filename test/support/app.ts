import { loadConfig, type Env } from "../../lib/config.ts";
import { TEST_RATE_LIMIT, TEST_SECRETS_KEY } from "./rate-limit-env.ts";
import { createRuntime, installRuntime, stopRuntime, type Runtime } from "../../lib/runtime.ts";
import { createWorkspace } from "../../lib/workspaces.ts";
import { dispatch } from "./router.ts";
import { checkAgainstOpenApi } from "./openapi-check.ts";
import { freshDatabaseTarget } from "./database.ts";
import { startEngine, type EngineOptions } from "../../lib/engine/engine.ts";
import type { QueueEngineName } from "../../lib/jobs/queue-engine.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface TestApp {
  rt: Runtime;
  keyA: string;
  keyB: string;
  workspaceA: string;
  workspaceB: string;
  api<T = any>(
    method: string,
    path: string,
    opts?: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<ApiResult<T>>;
  close(): Promise<void>;
}

/** A runtime on a fresh database with two workspaces, A and B, each with a key. */
export async function createTestApp(
  env: Env = {},
  opts: { credits?: number; engine?: boolean | EngineOptions; queue?: QueueEngineName } = {},
): Promise<TestApp> {
  const { target, drop } = await freshDatabaseTarget();
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-test-"));
  const config = loadConfig({ DATA_DIR: dataDir, ...TEST_RATE_LIMIT, ...TEST_SECRETS_KEY, ...env });
  // The embedded queue on either database: suites that test the queue engine start it themselves.
  const rt = await createRuntime(config, { target, queue: opts.queue ?? "database" });
  const uninstall = installRuntime(rt);
  if (opts.engine) await startEngine(rt, opts.engine === true ? {} : opts.engine);
  const a = await createWorkspace(rt.db.prisma, "workspace-a", opts.credits);
  const b = await createWorkspace(rt.db.prisma, "workspace-b", opts.credits);
  const keyA = a.key.key;

  return {
    rt,
    keyA,
    keyB: b.key.key,
    workspaceA: a.workspace.id,
    workspaceB: b.workspace.id,
    async api(method, path, o = {}) {
      const headers: Record<string, string> = { host: "localhost", ...o.headers };
      const key = o.key === undefined ? keyA : o.key;
      if (key) headers["x-api-key"] = key;
      let body: string | undefined;
      if (o.raw !== undefined) body = o.raw;
      else if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await dispatch(new Request(`http://localhost${path}`, { method, headers, body }));
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // non-JSON bodies are returned as text so a test can assert on them
      }
      checkAgainstOpenApi(method, path, res.status, res.headers.get("content-type") ?? "", parsed, text);
      return { status: res.status, body: parsed as any, headers: res.headers, text };
    },
    async close() {
      uninstall();
      await stopRuntime(rt);
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
