import { expect } from "vitest";
import type { ServerProcess } from "../support/server-process.ts";
import { type HealthAnswer, healthTimesDuring, worstBlockedMs } from "./health-pinger.ts";

// The guard the database-thread suites share: while some work goes through the real server,
// /api/health and a 401 are asked back to back, and no answer may be held more than 250 ms past
// the calm ones by the server's main thread (worstBlockedMs: the extra time, bounded by the CPU
// that thread spent meanwhile, so a loaded 2-core machine does not count, and a blocked loop does).
// What the main thread itself does for a request (reading a 2 MB body, checking 60,000 cells,
// writing CSV) is counted: 250 ms leaves it room on a slow machine.

export const BLOCKED_LIMIT_MS = 250;

/** What the cases of a suite measured, printed once at its end. */
export interface GuardFigures {
  /** Worst extra delay held by the server's main thread (ms), per case and route. */
  worst: Record<string, number>;
  /** Slowest answer, wall time on this machine (ms), per case. */
  slowest: Record<string, number>;
}

export const newGuardFigures = (): GuardFigures => ({ worst: {}, slowest: {} });

/** JSON calls to `server()` with one API key. */
export const keyedFetch =
  (server: () => ServerProcess, key: string) =>
  (method: string, p: string, body?: unknown, contentType = "application/json") =>
    fetch(`${server().url}${p}`, {
      method,
      headers: { "x-api-key": key, "content-type": contentType },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const shown = (answers: HealthAnswer[]) => answers.map((a) => `${Math.round(a.ms)}/${a.cpuMs}`).join(", ");

/**
 * Runs `work` while /api/health and a 401 (an unauthenticated /api/v1/bases) are asked from two
 * threads of the test, and expects neither held past BLOCKED_LIMIT_MS by the server's main thread.
 * The calm medians are measured just before, on the same server. The work's own failure fails it.
 */
export async function expectAnswersAtOnce(
  server: ServerProcess,
  name: string,
  work: () => Promise<unknown>,
  figures: GuardFigures,
): Promise<void> {
  const pid = server.child.pid;
  const { times: calm } = await healthTimesDuring(server.url, () => sleep(1_000));
  const { times: calm401 } = await healthTimesDuring(server.url, () => sleep(1_000), undefined, "/api/v1/bases");
  // Both pingers at once: the health one around the 401 one around the work.
  const health = await healthTimesDuring(
    server.url,
    () => healthTimesDuring(server.url, work, pid, "/api/v1/bases"),
    pid,
  );
  const refused = await health.result;
  await refused.result;
  figures.worst[`${name}: health`] = worstBlockedMs(health.answers, median(calm));
  figures.worst[`${name}: 401`] = worstBlockedMs(refused.answers, median(calm401));
  figures.slowest[name] = Math.round(Math.max(...health.times, ...refused.times));
  expect(health.answers.length).toBeGreaterThan(0);
  expect(refused.answers.length).toBeGreaterThan(0);
  expect(figures.worst[`${name}: health`], `health (ms/main-thread CPU ms): ${shown(health.answers)}`).toBeLessThan(
    BLOCKED_LIMIT_MS,
  );
  expect(figures.worst[`${name}: 401`], `401 (ms/main-thread CPU ms): ${shown(refused.answers)}`).toBeLessThan(
    BLOCKED_LIMIT_MS,
  );
}

export function printGuardFigures(figures: GuardFigures): void {
  console.log("worst extra delay held by the server's main thread (ms):", figures.worst);
  console.log("slowest answer, wall time on this machine (ms):", figures.slowest);
}
