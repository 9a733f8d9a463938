import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider.ts";
import { waitFor } from "../support/wait.ts";
import { databaseUrlOf, pgAdminUrl, skipMessage, startWorker, type WorkerProcess } from "./support.ts";

// An HTTP column's per-host limits hold across worker processes: two `npm run worker` processes,
// each able to run several cells at once, never have more calls in flight to the host than the
// column's concurrency, and never more calls a minute than its rate allows.

skipMessage("host limits across processes suite");

const ROWS = 24;
const CONCURRENCY = 2;
const DELAY_MS = 120;

describe.skipIf(!pgAdminUrl)("per-host limits across two worker processes", () => {
  let app: TestApp;
  let provider: FakeProvider;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    provider = await startFakeProvider((r) => ({ delayMs: DELAY_MS, json: { size: r.query.get("d")?.length ?? 0 } }));
    app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }, { queue: "pg-boss", credits: 100_000 });
    const env = {
      DATABASE_URL: await databaseUrlOf(app),
      ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
      WORKER_CONCURRENCY: "6",
      AI_CONCURRENCY: "12",
    };
    for (let i = 0; i < 2; i++) workers.push(await startWorker(env));
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await app?.close();
    await provider?.close();
  });

  it("keeps calls in flight to one host within the column's concurrency, whichever process makes them", async () => {
    const base = await createBase(app, {
      columns: [
        { name: "Domain", type: "short-text", isPrimary: true },
        {
          name: "Size",
          type: "number",
          fill: {
            kind: "http",
            request: { method: "GET", url: `${provider.url}/size?d={{Domain}}` },
            extract: "size",
            cacheTtlSeconds: 0,
            rateLimit: { concurrency: CONCURRENCY, perMinute: 6_000 },
          },
        },
      ],
    });
    // Which processes hold slots while the calls run, sampled: both must take part.
    const holders = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows = await app.rt.db.prisma.$queryRawUnsafe<{ holder: string }[]>(
          `SELECT holder FROM host_slots WHERE host = $1 AND expires_at > clock_timestamp()`,
          provider.host,
        );
        for (const r of rows) holders.add(r.holder);
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    const t0 = Date.now();
    const res = await app.api("POST", `/api/v1/bases/${base.baseId}/add-rows`, {
      body: { rows: Array.from({ length: ROWS }, (_, i) => ({ cells: { Domain: `d${i}.example` } })) },
    });
    expect(res.status, res.text).toBe(200);
    await waitFor(
      async () => {
        const [{ open }] = await app.rt.db.prisma.$queryRawUnsafe<{ open: number }[]>(
          `SELECT count(*)::int AS open FROM cells WHERE sheet_id = $1 AND status NOT IN ('done', 'error')`,
          base.sheetId,
        );
        return open === 0 ? true : undefined;
      },
      "every cell to be done",
      60_000,
    );
    const elapsed = Date.now() - t0;
    sampling = false;
    await sampler;
    const [{ done }] = await app.rt.db.prisma.$queryRawUnsafe<{ done: number }[]>(
      `SELECT count(*)::int AS done FROM cells WHERE sheet_id = $1 AND status = 'done'`,
      base.sheetId,
    );
    expect(done).toBe(ROWS);
    expect(provider.requests).toHaveLength(ROWS);
    expect(provider.maxInFlight()).toBeLessThanOrEqual(CONCURRENCY);
    // Two at a time: the calls alone take at least ROWS / CONCURRENCY rounds of the provider's delay.
    expect(elapsed).toBeGreaterThanOrEqual((ROWS / CONCURRENCY) * DELAY_MS);
    expect(holders.size).toBe(2);
  }, 90_000);
});
