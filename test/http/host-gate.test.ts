import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { migrate } from "../../lib/db/migrate.ts";
import type { HostGate, HostLimits } from "../../lib/engine/http/host-gate.ts";
import { sharedHostGate } from "../../lib/engine/http/shared-host-gate.ts";
import { freshDatabaseTarget } from "../support/database.ts";
import { waitFor } from "../support/wait.ts";

// The host limits two worker processes share through the database: two gates, each on a pool of
// its own on PostgreSQL (one database on PGlite), stand for the two processes.

let a: Database;
let b: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabaseTarget();
  drop = fresh.drop;
  a = await openDatabase(fresh.target);
  await migrate(a);
  b = fresh.target.kind === "postgres" ? await openDatabase(fresh.target) : a;
});
afterAll(async () => {
  if (b !== a) await b?.close();
  await a?.close();
  await drop?.();
});

let hosts = 0;
const newHost = () => `h${++hosts}-${Date.now()}.example:443`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const heldSlots = async (host: string) =>
  (
    await a.prisma.$queryRawUnsafe<{ holder: string }[]>(
      `SELECT holder FROM host_slots WHERE host = $1 AND expires_at > clock_timestamp()`,
      host,
    )
  ).map((r) => r.holder);

/** Calls through `gate` one after another until `until` says stop; counts them and the most at once. */
function caller(gate: HostGate, host: string, limits: HostLimits, callMs: number, seen: { now: number; max: number }) {
  let calls = 0;
  const run = async (until: () => boolean) => {
    while (!until()) {
      const leave = await gate.enter(host, limits);
      seen.max = Math.max(seen.max, ++seen.now);
      calls++;
      await sleep(callMs);
      seen.now--;
      await leave();
    }
  };
  return { run, calls: () => calls };
}

describe("the shared host gate", () => {
  it("keeps a host's calls in flight within its concurrency across processes, and both get calls", async () => {
    const host = newHost();
    const limits = { perMinute: 100_000, concurrency: 3, leaseMs: 10_000 };
    const seen = { now: 0, max: 0 };
    const gates = [sharedHostGate(a, "proc-a"), sharedHostGate(b, "proc-b")];
    const callers = gates.map((g) => caller(g, host, limits, 15, seen));
    const end = Date.now() + 1_500;
    await Promise.all(callers.flatMap((c) => Array.from({ length: 4 }, () => c.run(() => Date.now() > end))));
    expect(seen.max).toBe(3);
    for (const c of callers) expect(c.calls()).toBeGreaterThan(5);
    await Promise.all(gates.map((g) => g.close?.()));
    expect(await heldSlots(host)).toEqual([]);
  }, 30_000);

  it("keeps a host's rate across processes: a burst of a tenth of a minute's calls, then the rate", async () => {
    const host = newHost();
    const limits = { perMinute: 600, concurrency: 100, leaseMs: 10_000 }; // burst 60, then 10 a second
    const gates = [sharedHostGate(a, "proc-a"), sharedHostGate(b, "proc-b")];
    const t0 = Date.now();
    const at: number[] = [];
    await Promise.all(
      Array.from({ length: 70 }, async (_, i) => {
        const leave = await gates[i % 2].enter(host, limits);
        at.push(Date.now() - t0);
        await leave();
      }),
    );
    at.sort((x, y) => x - y);
    // By t ms, at most 60 + t / 100 tokens were there to take: the 61st call waits for one, the
    // 70th for ten (1 s).
    const early = at.filter((t, i) => i + 1 > 60 + Math.floor((t + 10) / 100));
    expect(early).toEqual([]);
    expect(at[69]).toBeGreaterThanOrEqual(990);
    await Promise.all(gates.map((g) => g.close?.()));
  }, 30_000);

  it("gives a process that died holding slots' slots to another once their lease ends", async () => {
    const host = newHost();
    const limits = { perMinute: 100_000, concurrency: 2, leaseMs: 600 };
    const dead = sharedHostGate(a, "dead");
    await dead.enter(host, limits);
    await dead.enter(host, limits); // never left: the process is gone
    const t0 = Date.now();
    const leave = await sharedHostGate(b, "alive").enter(host, limits);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    expect(Date.now() - t0).toBeLessThan(5_000);
    await leave();
  }, 30_000);

  it("does not let a busy process keep a host from another", async () => {
    const host = newHost();
    const limits = { perMinute: 100_000, concurrency: 2, leaseMs: 10_000 };
    const seen = { now: 0, max: 0 };
    const busy = sharedHostGate(a, "busy");
    const other = sharedHostGate(b, "other");
    // The busy process always has calls waiting: without a want, it would hand its slots on for
    // as long as it runs.
    const stream = caller(busy, host, limits, 30, seen);
    const end = Date.now() + 3_000;
    const running = Promise.all(Array.from({ length: 6 }, () => stream.run(() => Date.now() > end)));
    await waitFor(() => stream.calls() > 4, "the busy process to be calling");
    const t0 = Date.now();
    const leave = await other.enter(host, limits);
    const waited = Date.now() - t0;
    seen.max = Math.max(seen.max, ++seen.now);
    await sleep(30);
    seen.now--;
    await leave();
    expect(waited).toBeLessThan(1_000);
    expect(Date.now()).toBeLessThan(end);
    await running;
    expect(seen.max).toBeLessThanOrEqual(2);
    await Promise.all([busy.close?.(), other.close?.()]);
  }, 30_000);

  it("hands a finished call's slot straight to a waiting call, and a busy host costs fewer statements than calls", async () => {
    const host = newHost();
    const limits = { perMinute: 100_000, concurrency: 2, leaseMs: 10_000 };
    let statements = 0;
    const counted = { volatile: ((sql, params) => (statements++, a.volatile(sql, params))) as Database["volatile"] };
    const gate = sharedHostGate(counted, "proc-a");
    let lastLeave = 0;
    const gaps: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        const leave = await gate.enter(host, limits);
        if (lastLeave) gaps.push(performance.now() - lastLeave);
        await sleep(10);
        lastLeave = performance.now();
        await leave();
      }),
    );
    gaps.sort((x, y) => x - y);
    // Handed on, the next call starts within the same turn of the event loop, no round between.
    expect(gaps[Math.floor(gaps.length / 2)]).toBeLessThan(0.3);
    expect(statements).toBeLessThan(30);
    await gate.close?.();
    expect(await heldSlots(host)).toEqual([]);
  }, 30_000);

  it("gives a call an idle slot with no statement, and renews a lease only when a call could outlast it", async () => {
    const host = newHost();
    // A lease runs 1.5 calls' longest (450 ms): without renewal it would lapse under the calls below.
    const limits = { perMinute: 100_000, concurrency: 1, leaseMs: 300 };
    let statements = 0;
    const counted = { volatile: ((sql, params) => (statements++, a.volatile(sql, params))) as Database["volatile"] };
    const gate = sharedHostGate(counted, "proc-a");
    const t0 = Date.now();
    let calls = 0;
    const lapsed: number[] = [];
    // One call after another, none waiting: each takes the slot the last one left.
    while (Date.now() - t0 < 1_200) {
      const leave = await gate.enter(host, limits);
      calls++;
      if (calls % 10 === 0 && (await heldSlots(host)).length !== 1) lapsed.push(Date.now() - t0);
      await sleep(5);
      await leave();
    }
    expect(lapsed).toEqual([]);
    expect(calls).toBeGreaterThan(40);
    expect(statements).toBeLessThan(calls / 3);
    await gate.close?.();
  }, 30_000);

  it("keeps the slot of a finished call a moment for the next call, then frees it", async () => {
    const host = newHost();
    const limits = { perMinute: 100_000, concurrency: 4, leaseMs: 10_000 };
    const gate = sharedHostGate(a, "proc-a");
    await (await gate.enter(host, limits))();
    expect(await heldSlots(host)).toHaveLength(1);
    await waitFor(async () => (await heldSlots(host)).length === 0, "the idle slot to be freed", 2_000, 10);
    // Closing frees a kept slot at once.
    await (await gate.enter(host, limits))();
    await gate.close?.();
    expect(await heldSlots(host)).toEqual([]);
  }, 30_000);
});
