import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { waitFor } from "./wait.ts";
import { TEST_RATE_LIMIT, TEST_SECRETS_KEY } from "./rate-limit-env.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** Every suite that starts the real server shares one build, made once by the test runner. */
export const TEST_DIST_DIR = ".next-test";

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGKILL to the whole process group: no cleanup, no graceful shutdown. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A free port for a server process. It is drawn below 32768, outside Linux's ephemeral range, so
 * that no outgoing connection of another suite can take it between the pick and a restart on it.
 */
export async function pickServerPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/**
 * Starts the production server the way `npm start` does (building first when needed), in its own
 * process group so a test can kill -9 all of it.
 */
export async function startServerProcess(env: Record<string, string>, port: number): Promise<ServerProcess> {
  let log = "";
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      ...TEST_RATE_LIMIT,
      ...TEST_SECRETS_KEY,
      ...env,
      NEXT_DIST_DIR: TEST_DIST_DIR,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
      const res = await fetch(`${url}/api/health`).catch(() => undefined);
      return res?.ok;
    },
    "the server to become healthy",
    240_000,
    250,
  ).catch((e) => {
    throw new Error(`${(e as Error).message}; server output:\n${log.slice(-4_000)}`);
  });
  const signalGroup = async (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      return;
    }
    await exited;
    // The group leader can be gone before the server process that holds the port: a restart on
    // the same port waits until nobody answers there any more.
    await waitFor(
      async () =>
        !(await fetch(`${url}/api/health`).then(
          () => true,
          () => false,
        )),
      "the old server to let go of its port",
      20_000,
      50,
    );
  };
  return { url, child, output: () => log, kill9: () => signalGroup("SIGKILL"), stop: () => signalGroup("SIGTERM") };
}

/** JSON calls with one API key to whichever server process `current` gives (it changes across restarts). */
export function keyedApi(current: () => ServerProcess | undefined, key: string) {
  return async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${current()!.url}${p}`, {
      method,
      headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
}
