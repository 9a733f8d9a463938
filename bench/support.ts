import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Runtime } from "../lib/runtime.ts";

const root = path.resolve(import.meta.dirname, "..");

/** Starts the fake LLM as its own process, so its work does not share the engine's event loop. */
export async function startFakeLlmProcess(
  args: string[],
): Promise<{ baseUrl: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ["test/support/fake-llm.ts", "--port", "0", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`fake LLM exited with ${code}`)));
  });
  const { baseUrl } = JSON.parse(line) as { baseUrl: string };
  return {
    baseUrl,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export function peakRss(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join("  ")).join("\n");
}

/**
 * Waits until the base's runs are over. A run finishes when none of its cells is open; it is polled
 * by its one row: counting the open cells instead cost up to 30 ms a poll at 50,000 cells, on the
 * embedded database's one thread, which the engine shares. A paused run would never finish: it
 * fails the benchmark rather than end its wait early with cells left open.
 */
export async function waitForRuns(rt: Runtime, baseId: string, bench: string): Promise<void> {
  for (;;) {
    const runs = await rt.db.prisma.run.findMany({ where: { baseId }, select: { status: true, pausedReason: true } });
    const paused = runs.find((r) => r.status === "paused");
    if (paused) throw new Error(`${bench}: the run paused (${paused.pausedReason}) with cells left to run`);
    if (!runs.some((r) => r.status === "running")) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}
