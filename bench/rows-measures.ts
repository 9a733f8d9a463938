import autocannon from "autocannon";
import { call, type BenchServer } from "./rows-server.ts";

// The rows npm run bench:rows writes, and its two measurements that load the running server with
// requests, each beside its floor in alternating rounds: Get Row under load against a bare route
// handler, and Update Rows against Add Rows at the same batch size.

export const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);

export const COLUMNS = [
  { name: "Company", type: "short-text", isPrimary: true },
  { name: "Website", type: "url" },
  { name: "Employees", type: "number" },
  { name: "Email", type: "email" },
  { name: "Founded", type: "date" },
  { name: "Notes", type: "long-text" },
];
export const cellsOf = (i: number) => ({
  Company: `Company ${i}`,
  Website: `https://company${i}.example`,
  Employees: String(i % 5000),
  Email: `info@company${i}.example`,
  Founded: `20${String(i % 25).padStart(2, "0")}-01-01`,
  Notes: `Row ${i}: ${"n".repeat(40)}`,
});

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Get Row and the floor under load, in alternating slices (10 connections each, LOAD_SECONDS in
 * all per target), so that a change in the machine's load during the run hits both alike.
 * Requests/s is the total over all slices; p50 is the median of the slices', p99 the worst.
 */
export async function loadPair(
  a: { url: string; headers?: Record<string, string> },
  b: { url: string; headers?: Record<string, string> },
) {
  const slices = Math.max(1, Math.round(LOAD_SECONDS / 2));
  const seconds = LOAD_SECONDS / slices;
  const runs = new Map<typeof a, { requests: number; seconds: number; p50: number[]; p99: number[] }>([
    [a, { requests: 0, seconds: 0, p50: [], p99: [] }],
    [b, { requests: 0, seconds: 0, p50: [], p99: [] }],
  ]);
  for (let i = 0; i < slices; i++) {
    for (const t of i % 2 === 0 ? [a, b] : [b, a]) {
      const r = await autocannon({ url: t.url, connections: 10, duration: seconds, headers: t.headers ?? {} });
      if (r.non2xx > 0 || r.errors > 0) {
        const sample = await fetch(t.url, { headers: t.headers }).then(
          async (res) => `${res.status} ${(await res.text()).slice(0, 300)}`,
        );
        throw new Error(
          `load test of ${t.url}: ${r.non2xx} of ${r.requests.total} answers were not 2xx, ${r.errors} errors; now: ${sample}`,
        );
      }
      const acc = runs.get(t)!;
      acc.requests += r.requests.total;
      acc.seconds += seconds;
      acc.p50.push(r.latency.p50);
      acc.p99.push(r.latency.p99);
    }
  }
  const sum = (t: typeof a) => {
    const acc = runs.get(t)!;
    return { rps: acc.requests / acc.seconds, p50: median(acc.p50), p99: Math.max(...acc.p99) };
  };
  return [sum(a), sum(b)];
}

/**
 * Rows/s of Update Rows and of Add Rows at the same batch size, in alternating rounds on one base
 * of 10,000 rows: every update changes all six cells of rows spread over the base.
 */
export async function updatesAgainstInserts(server: BenchServer, key: string, baseId: string) {
  const listed = await call(server, key, "GET", `/api/v1/bases/${baseId}/rows`);
  const ids: string[] = listed.rows.map((r: { id: string }) => r.id);
  const out: { batch: number; update: number; insert: number }[] = [];
  for (const batch of [1_000, 100]) {
    const requests = batch === 1_000 ? 5 : 30;
    let updated = 0;
    let inserted = 0;
    let updateMs = 0;
    let insertMs = 0;
    for (let round = 0; round < requests; round++) {
      const pick = Array.from({ length: batch }, (_, i) => ids[(round * batch + i * 7) % ids.length]);
      const update = { rows: pick.map((id, i) => ({ id, cells: cellsOf(round * batch + i + 500_000) })) };
      const insert = {
        rows: Array.from({ length: batch }, (_, i) => ({ cells: cellsOf(round * batch + i + 900_000) })),
      };
      updateMs += await timed(async () => {
        const res = await call(server, key, "POST", `/api/v1/bases/${baseId}/update-rows`, update);
        if (res.errors.length > 0) throw new Error(`Update Rows: ${JSON.stringify(res.errors[0])}`);
      });
      insertMs += await timed(() => call(server, key, "POST", `/api/v1/bases/${baseId}/add-rows`, insert));
      updated += batch;
      inserted += batch;
    }
    out.push({ batch, update: updated / (updateMs / 1000), insert: inserted / (insertMs / 1000) });
  }
  return out;
}
