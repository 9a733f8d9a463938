import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { waitFor } from "../support/wait.ts";
import { TEST_SECRETS_KEY } from "../support/rate-limit-env.ts";
import type { TestApp } from "../support/app.ts";

// The scale-out suites need a real PostgreSQL: TEST_DATABASE_URL names the server (its admin
// database); each run gets a fresh database of its own.

const root = path.resolve(import.meta.dirname, "../..");

export const pgAdminUrl = process.env.TEST_DATABASE_URL;

export function skipMessage(suite: string): void {
  if (!pgAdminUrl)
    console.log(`== ${suite} SKIPPED: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)`);
}

export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cw_scale_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgAdminUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgAdminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The URL of the PostgreSQL database a test app runs on, for other processes to share it. */
export async function databaseUrlOf(app: TestApp): Promise<string> {
  const [{ name }] = await app.rt.db.prisma.$queryRawUnsafe<{ name: string }[]>(`SELECT current_database() AS name`);
  const url = new URL(pgAdminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  kill9(): Promise<void>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `npm run worker` as a child process in its own process group (so kill -9 takes all of it).
 * Node runs the entry with tsx's loader directly, so SIGTERM reaches the worker itself and its
 * exit code is the worker's, not a wrapper's.
 */
export async function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  let log = "";
  const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/worker.ts"], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...TEST_SECRETS_KEY, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`worker exited early:\n${log}`);
      return log.includes("worker ready");
    },
    "the worker to start",
    60_000,
    100,
  );
  const signal = async (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // already gone
    }
    return exited;
  };
  return {
    child,
    output: () => log,
    exited,
    kill9: async () => void (await signal("SIGKILL")),
    stop: () => signal("SIGTERM"),
  };
}

/** Reads an SSE stream in the background and collects its events. */
export function collectSse(
  url: string,
  headers: Record<string, string>,
): { events: { type: string; data: any }[]; ready: Promise<void>; close(): void } {
  const abort = new AbortController();
  const events: { type: string; data: any }[] = [];
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  void (async () => {
    const res = await fetch(url, { headers, signal: abort.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!type) continue;
        events.push({ type, data: data ? JSON.parse(data) : undefined });
        if (type === "ready") resolveReady();
      }
    }
  })().catch(() => undefined);
  return { events, ready, close: () => abort.abort() };
}
