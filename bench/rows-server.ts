import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

// The production server for bench:rows: built once, started with `next start` as its own process
// (so its memory can be watched), stopped with SIGTERM like a deploy would.

export const root = path.resolve(import.meta.dirname, "..");

function newestSource(): number {
  let newest = 0;
  const walk = (p: string) => {
    const s = statSync(p);
    if (!s.isDirectory()) newest = Math.max(newest, s.mtimeMs);
    else if (!/^(node_modules|generated|\.next)$/.test(path.basename(p))) for (const n of readdirSync(p)) walk(path.join(p, n));
  };
  for (const p of ["app", "components", "lib", "public", "next.config.ts", "instrumentation.ts", "package-lock.json"]) {
    if (existsSync(path.join(root, p))) walk(path.join(root, p));
  }
  return newest;
}

/** Builds the app unless the build is newer than every source. */
export function ensureBuild(): void {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (existsSync(buildId) && statSync(buildId).mtimeMs >= newestSource()) return;
  console.log("building the app (next build)…");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed:\n${r.stdout}\n${r.stderr}`);
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
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  // The server gets exactly the database and key of this run, never the caller's.
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["DATABASE_URL", "DATA_DIR", "API_KEY", "PORT"]) delete childEnv[k];
  // The per-key limit stays on, so its cost is in the figures, but high enough never to refuse
  // (API_RATE_LIMIT=0 in the caller's environment measures without it).
  childEnv.API_RATE_LIMIT ??= "1000000000";
  childEnv.API_RATE_BURST ??= "1000000000";
  Object.assign(childEnv, { NEXT_TELEMETRY_DISABLED: "1" }, env);
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${log}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
