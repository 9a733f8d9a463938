import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { sharedTokenBuckets } from "../../lib/engine/shared-rate-limit.ts";
import { EventBus, type AppEvent } from "../../lib/events.ts";
import { MAX_PAYLOAD_BYTES, packEvents, startEventsBridge, type EventsBridge } from "../../lib/events-bridge.ts";
import { waitFor } from "../support/wait.ts";
import { freshPostgres, pgAdminUrl, skipMessage } from "./support.ts";

// What processes share through PostgreSQL: the rate-limit buckets and the realtime events.
// Two "processes" here are two independent instances on two connections to one database.

skipMessage("shared limits and events suite");

describe("packing events into NOTIFY payloads", () => {
  it("keeps every payload under PostgreSQL's limit, splitting a long rows.changed by ids", () => {
    const rowIds = Array.from({ length: 2_000 }, (_, i) => `sr_${String(i).padStart(20, "0")}`);
    const events: AppEvent[] = [
      { type: "rows.changed", workspaceId: "w", baseId: "b", rowIds, kind: "added" },
      ...Array.from(
        { length: 100 },
        (_, i): AppEvent => ({
          type: "cell.updated",
          workspaceId: "w",
          baseId: "b",
          rowId: `r${i}`,
          columnId: "c",
          status: "done",
        }),
      ),
    ];
    const payloads = packEvents("origin", events);
    expect(payloads.length).toBeGreaterThan(5);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const back = payloads.flatMap((p) => JSON.parse(p).e as AppEvent[]);
    expect(back.filter((e) => e.type === "rows.changed").flatMap((e) => (e as { rowIds: string[] }).rowIds)).toEqual(
      rowIds,
    );
    expect(back.filter((e) => e.type === "cell.updated")).toHaveLength(100);
  });
});

describe.skipIf(!pgAdminUrl)("shared through PostgreSQL", () => {
  let target: { url: string; drop: () => Promise<void> };
  let a: Database;
  let b: Database;

  beforeAll(async () => {
    target = await freshPostgres();
    a = await openDatabase({ kind: "postgres", url: target.url, poolSize: 4 });
    b = await openDatabase({ kind: "postgres", url: target.url, poolSize: 4 });
    await migrate(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await target?.drop();
  });

  it("one AI_RPM bucket for two processes: bursts up to a tenth, then the rate", { timeout: 30_000 }, async () => {
    // 2,400 a minute: 40 a second, bursts of 240. 320 calls split over two limiters need ≥ 2 s.
    const limiters = [sharedTokenBuckets(a.prisma, 2_400), sharedTokenBuckets(b.prisma, 2_400)];
    const times: number[] = [];
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 320 }, (_, i) => limiters[i % 2].acquire("openai").then(() => times.push(Date.now()))),
    );
    const wall = Date.now() - t0;
    expect(wall).toBeGreaterThanOrEqual(1_800);
    times.sort((x, y) => x - y);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 1_000) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(240 + 40 + 2);
    // Another provider has its own bucket.
    const t1 = Date.now();
    await limiters[0].acquire("anthropic");
    expect(Date.now() - t1).toBeLessThan(1_000);
  });

  it("an aborted wait is rejected and takes no token", async () => {
    const limiter = sharedTokenBuckets(a.prisma, 60); // 1 a second, burst 6
    for (let i = 0; i < 6; i++) await limiter.acquire("slow");
    const abort = new AbortController();
    const waiting = limiter.acquire("slow", abort.signal);
    setTimeout(() => abort.abort(new Error("stop")), 100);
    await expect(waiting).rejects.toThrow("stop");
  });

  it("events cross processes once, and re-emitted events are not published again", async () => {
    const one = { bus: new EventBus(), services: [] as { name: string; stop: () => Promise<void> }[] };
    const two = { bus: new EventBus(), services: [] as { name: string; stop: () => Promise<void> }[] };
    const bridges: EventsBridge[] = [
      await startEventsBridge(one, target.url),
      await startEventsBridge(two, target.url),
    ];
    const seenOne: AppEvent[] = [];
    const seenTwo: AppEvent[] = [];
    one.bus.on((e) => seenOne.push(e));
    two.bus.on((e) => seenTwo.push(e));
    try {
      one.bus.emit([
        { type: "cell.updated", workspaceId: "w", baseId: "b", rowId: "r1", columnId: "c1", status: "done" },
        { type: "row.sheet.processed", workspaceId: "w", baseId: "b", sheetId: "s", rowId: "r1" },
        { type: "find.updated", workspaceId: "w", baseId: "b", findId: "find_1" },
        { type: "work.available" },
        { type: "work.available" },
        { type: "finds.available" },
        { type: "finds.available" },
      ]);
      await waitFor(() => seenTwo.length >= 5, "process two to receive the events", 5_000);
      // Markers published after the batch, one each way: each process publishes in order and
      // NOTIFY keeps one sender's order, so a duplicate sent to two, or anything two published
      // back to one, would arrive before the marker does.
      const marker = (baseId: string): AppEvent => ({ type: "structure.changed", workspaceId: "w", baseId });
      const isMarker = (e: AppEvent, baseId?: string) =>
        e.type === "structure.changed" &&
        e.baseId.startsWith("marker") &&
        (baseId === undefined || e.baseId === baseId);
      one.bus.emit(marker("marker-from-one"));
      await waitFor(
        () => seenTwo.some((e) => isMarker(e, "marker-from-one")),
        "process two to receive one's marker",
        5_000,
      );
      two.bus.emit(marker("marker-from-two"));
      await waitFor(
        () => seenOne.some((e) => isMarker(e, "marker-from-two")),
        "process one to receive two's marker",
        5_000,
      );
      expect(seenTwo.filter((e) => !isMarker(e)).map((e) => e.type)).toEqual([
        "cell.updated",
        "row.sheet.processed",
        "find.updated",
        "work.available",
        "finds.available",
      ]);
      // Process one saw only its own seven: nothing came back.
      expect(seenOne.filter((e) => !isMarker(e))).toHaveLength(7);
    } finally {
      for (const br of bridges) await br.stop();
    }
  });
});
