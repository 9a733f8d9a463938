import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

// The production server for the HTTP benchmarks: started with `npm start`'s own command line
// (without npm in front, so the process measured is the server), stopped with SIGTERM like a deploy.

export const root = path.resolve(import.meta.dirname, "..");

/** `npm start`'s arguments to node, read from package.json. */
export function npmStartArgs(): string[] {
  const script = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } })
    .scripts.start;
  const [command, ...args] = script.split(/\s+/);
  if (command !== "node") throw new Error(`npm start runs ${command}, not node`);
  return args;
}

/** Builds the app as `npm start` does, unless the build is newer than every source. */
export function ensureBuild(): void {
  const r = spawnSync(process.execPath, [...npmStartArgs(), "--build-only"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`the build failed:\n${r.stdout}\n${r.stderr}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in bytes (Linux /proc, else ps). */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux: fall through
  }
  const r = spawnSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" });
  return Number(r.stdout.trim()) * 1024;
}

/** Samples a process's RSS every few milliseconds until stopped; returns the peak. */
export function sampleRss(pid: number, everyMs = 20): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}

export interface BenchServer {
  url: string;
  pid: number;
  /** From spawn to the first answer of `probe`. */
  startMs: number;
  stop(): Promise<void>;
}

/** Starts `command` on a free port (PORT) and waits until `probe` answers 2xx. */
export async function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  probe: string,
  cwd = root,
): Promise<BenchServer> {
  const port = await freePort();
  const t0 = performance.now();
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // A first start builds the app: minutes on a slow machine.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${log}`);
    if (
      await fetch(url + probe).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`the server did not answer:\n${log}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url,
    pid: child.pid!,
    startMs: performance.now() - t0,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The production server as `npm start` runs it, with exactly the database and key of this run. */
export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["DATABASE_URL", "DATA_DIR", "API_KEY", "PORT", "HOST"]) delete childEnv[k];
  // The per-key limit stays on, so its cost is in the figures, but high enough never to refuse
  // (API_RATE_LIMIT=0 in the caller's environment measures without it).
  childEnv.API_RATE_LIMIT ??= "1000000000";
  childEnv.API_RATE_BURST ??= "1000000000";
  return startProcess(
    process.execPath,
    npmStartArgs(),
    { ...childEnv, NEXT_TELEMETRY_DISABLED: "1", ...env },
    "/api/health",
  );
}

/** One API request with the run's key; a non-2xx answer throws with its body. */
export async function call(server: { url: string }, key: string, method: string, p: string, body?: unknown) {
  const res = await fetch(server.url + p, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p} → ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}
