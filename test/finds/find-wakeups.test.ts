import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFindWorker } from "../../lib/engine/find/worker.ts";
import type { Runtime } from "../../lib/runtime.ts";

// The find worker claims when a find is started, extended or resumed, not on every commit that
// queues or stores cells: a 10,000-row run once cost a claim statement per stored batch of cells.

const ENV = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", AI_MODEL: "openai:test-model" };
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp(ENV);
});
afterAll(async () => {
  await app?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("find worker wake-ups", () => {
  it("claims on finds.available, and not on work.available", async () => {
    let claims = 0;
    const prisma = new Proxy(app.rt.db.prisma, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key !== "$queryRawUnsafe") return typeof value === "function" ? value.bind(target) : value;
        return (sql: string, ...params: unknown[]) => {
          if (sql.startsWith("UPDATE finds SET lease_owner")) claims++;
          return target.$queryRawUnsafe(sql, ...params);
        };
      },
    });
    const rt: Runtime = { ...app.rt, db: { ...app.rt.db, prisma }, services: [] };
    const worker = startFindWorker(rt, { limiter: app.rt.limiter, tools: {} as never });
    try {
      await sleep(100);
      const before = claims;
      expect(before).toBe(1); // its first look, at start
      // Ten commits' worth of wake-ups, each after the last claim (if any) ended. The worker's
      // own poll (once a second) may fall within them once.
      for (let i = 0; i < 10; i++) {
        app.rt.bus.emit({ type: "work.available" });
        await sleep(40);
      }
      expect(claims - before).toBeLessThanOrEqual(1);
      const quiet = claims;
      for (let i = 0; i < 5; i++) {
        app.rt.bus.emit({ type: "finds.available" });
        await sleep(40);
      }
      expect(claims - quiet).toBeGreaterThanOrEqual(4);
    } finally {
      await worker.stop();
    }
  });
});
