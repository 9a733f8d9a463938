import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";

// Measures a server while something hostile goes through it: how long /api/health takes to answer,
// asked back to back from a thread of its own, and how much the server's resident memory grows.

// The pinger runs in a thread of its own, so that sending a large upload from the test's thread
// does not delay the pings it is measuring. It sends one request before it reports ready, so that
// its own first connection is not counted. Beside each answer's time it reads how much CPU the
// server's main thread spent meanwhile (/proc, in clock ticks): an event loop held by our own work
// spends the whole wait on that thread, while a machine busy with other processes only delays it.
const PINGER = `
const { readFileSync } = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const TICK_MS = 10;
const mainThreadTicks = () => {
  if (!workerData.pid) return 0;
  try {
    const stat = readFileSync("/proc/" + workerData.pid + "/task/" + workerData.pid + "/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
};
let running = true;
const answers = [];
parentPort.on("message", () => (running = false));
const ping = async () => {
  const t0 = performance.now();
  const cpu0 = mainThreadTicks();
  // A request that fails (the server let no connection in for 10 s) is counted, not fatal.
  const failed = await fetch(workerData.url).then((r) => r.arrayBuffer().then(() => false), () => true);
  const cpuMs = workerData.pid ? (mainThreadTicks() - cpu0 + 1) * TICK_MS : Infinity;
  answers.push(failed ? { ms: performance.now() - t0, cpuMs, failed } : { ms: performance.now() - t0, cpuMs });
};
(async () => {
  await fetch(workerData.url).then((r) => r.arrayBuffer());
  parentPort.postMessage("ready");
  if (workerData.everyMs) {
    // On a schedule, whether or not the answers before have come: a held server delays them all.
    const pending = [];
    const start = performance.now();
    for (let k = 1; running; k++) {
      pending.push(ping());
      await new Promise((r) => setTimeout(r, Math.max(0, start + k * workerData.everyMs - performance.now())));
    }
    await Promise.all(pending);
  }
  while (running && !workerData.everyMs) {
    const t0 = performance.now();
    const cpu0 = mainThreadTicks();
    await fetch(workerData.url).then((r) => r.arrayBuffer());
    answers.push({ ms: performance.now() - t0, cpuMs: workerData.pid ? (mainThreadTicks() - cpu0 + 1) * TICK_MS : Infinity });
    await new Promise((r) => setTimeout(r, 5));
  }
  parentPort.postMessage(answers);
})();
`;

/** One health answer: its time, and (an upper bound of) the CPU the server's main thread spent meanwhile. */
export interface HealthAnswer {
  ms: number;
  cpuMs: number;
  /** On a schedule (everyMs), a request that got no answer: `ms` is the time until it failed. */
  failed?: true;
}

/**
 * Health answers sampled back to back while `work` runs; it starts once the pinger is ready.
 * `serverPid` is the server process (or an ancestor of it, such as `npm start`), whose main thread's
 * CPU time is read beside each answer; without it the CPU is unbounded. `pathname` asks another
 * route instead (one that answers 401, say). `everyMs` sends a request every so many milliseconds
 * instead, without waiting for the answers before (the benchmark's way).
 */
export async function healthTimesDuring<T>(
  serverUrl: string,
  work: () => Promise<T>,
  serverPid?: number,
  pathname = "/api/health",
  everyMs = 0,
): Promise<{ times: number[]; answers: HealthAnswer[]; result: Promise<T> }> {
  const pid = serverPid === undefined ? 0 : serverMainPid(serverPid);
  const pinger = new Worker(PINGER, { eval: true, workerData: { url: `${serverUrl}${pathname}`, pid, everyMs } });
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
    const answers = (await next()) as HealthAnswer[];
    return { times: answers.map((a) => a.ms), answers, result };
  } finally {
    await pinger.terminate();
  }
}

/**
 * How long the server's event loop was held up during an answer, at worst: its extra time over the
 * calm median, but no more than the CPU its main thread spent meanwhile. A loop blocked by the
 * server's own work is both slow and busy; one that other processes kept off the cores is only slow,
 * so the bound holds on a busy machine too.
 */
export function worstBlockedMs(answers: HealthAnswer[], calmMedianMs: number): number {
  return Math.round(Math.max(...answers.map((a) => Math.min(a.ms - calmMedianMs, a.cpuMs))));
}

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** The process that serves HTTP: the server's own entry among `pid` and its descendants. */
function serverMainPid(pid: number): number {
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${p}/cmdline`, "utf8");
    } catch {
      continue;
    }
    // node itself, not the shell npm runs the script in, whose command line names the entry too.
    const [program, ...args] = cmdline.split("\0");
    if (program.endsWith("node") && args.some((a) => a.endsWith("launch.mjs"))) return p;
    queue.push(...childrenOf(p));
  }
  return 0;
}

/** Resident memory (bytes) of a process and all its descendants, read from /proc (Linux). */
export function treeRss(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      for (const child of childrenOf(p)) visit(child);
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
