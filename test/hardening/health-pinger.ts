import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";

// Measures a server while something hostile goes through it: how long /api/health takes to answer,
// asked back to back from a thread of its own, and how much the server's resident memory grows.

// The pinger runs in a thread of its own, so that sending a large upload from the test's thread
// does not delay the pings it is measuring. It sends one request before it reports ready, so that
// its own first connection is not counted.
const PINGER = `
const { parentPort, workerData } = require("node:worker_threads");
let running = true;
const times = [];
parentPort.on("message", () => (running = false));
(async () => {
  await fetch(workerData.url).then((r) => r.arrayBuffer());
  parentPort.postMessage("ready");
  while (running) {
    const t0 = performance.now();
    await fetch(workerData.url).then((r) => r.arrayBuffer());
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  parentPort.postMessage(times);
})();
`;

/** Health answer times (ms), sampled back to back while `work` runs; it starts once the pinger is ready. */
export async function healthTimesDuring<T>(
  serverUrl: string,
  work: () => Promise<T>,
): Promise<{ times: number[]; result: Promise<T> }> {
  const pinger = new Worker(PINGER, { eval: true, workerData: { url: `${serverUrl}/api/health` } });
  const messages: unknown[] = [];
  let wake = () => {};
  pinger.on("message", (m) => {
    messages.push(m);
    wake();
  });
  const failed = new Promise<never>((_, reject) => pinger.once("error", reject));
  const next = async () => {
    while (!messages.length) await Promise.race([new Promise<void>((r) => (wake = r)), failed]);
    return messages.shift();
  };
  try {
    await next(); // "ready"
    const result = work();
    await result.catch(() => undefined);
    pinger.postMessage("stop");
    return { times: (await next()) as number[], result };
  } finally {
    await pinger.terminate();
  }
}

/** Resident memory (bytes) of a process and all its descendants, read from /proc (Linux). */
export function treeRss(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      for (const child of readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean))
        visit(Number(child));
    } catch {
      // The process ended meanwhile.
    }
  };
  visit(pid);
  return total;
}

/** The highest resident memory of the process tree while `work` runs, sampled every 10 ms. */
export async function peakRssDuring<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ before: number; peak: number; result: T }> {
  const before = treeRss(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 10);
  try {
    const result = await work();
    peak = Math.max(peak, treeRss(pid));
    return { before, peak, result };
  } finally {
    clearInterval(timer);
  }
}
