import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { pruneOnce, PRUNE_BATCH } from "../../lib/retention.ts";
import { loadConfig } from "../../lib/config.ts";

// Retention: webhook messages (with their attempts) after 30 days, cell attempts after 90, search
// cache entries once expired; recent records stay; the periods are settings; chat history goes
// with its base.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await app.rt.db.prisma.$executeRawUnsafe(
    `INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret) VALUES ('ep', $1, 'https://hooks.example/in', ARRAY['row.sheet.processed'], 'whsec_x')`,
    app.workspaceA,
  );
});
afterAll(() => app.close());

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const sql = (q: string, ...args: unknown[]) => app.rt.db.prisma.$executeRawUnsafe(q, ...args);
const count = async (table: string) =>
  Number((await app.rt.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);

async function seed(tag: string, ageDays: number, n = 1) {
  for (let i = 0; i < n; i++) {
    const id = `${tag}_${i}`;
    await sql(
      `INSERT INTO webhook_messages (id, endpoint_id, workspace_id, event_type, body, status, created_at, updated_at) VALUES ($1, 'ep', $2, 'row.sheet.processed', '{}', 'succeeded', $3, $3)`,
      `wm_${id}`,
      app.workspaceA,
      daysAgo(ageDays),
    );
    await sql(
      `INSERT INTO webhook_attempts (id, message_id, endpoint_id, attempted_at, status_code, duration_ms, success) VALUES ($1, $2, 'ep', $3, 200, 5, true)`,
      `wa_${id}`,
      `wm_${id}`,
      daysAgo(ageDays),
    );
    await sql(
      `INSERT INTO cell_runs (id, row_id, column_id, workspace_id, generation, attempt, provider, model, outcome, created_at) VALUES ($1, 'r', 'c', $2, 1, 1, 'openai', 'm', 'done', $3)`,
      `cr_${id}`,
      app.workspaceA,
      daysAgo(ageDays),
    );
    await sql(
      `INSERT INTO search_cache (key, results, expires_at) VALUES ($1, '[]', $2)`,
      `sc_${id}`,
      new Date(Date.now() + (ageDays > 0 ? -1 : 1) * 60_000),
    );
  }
}

it("prunes old records in batches and keeps recent ones", async () => {
  await seed("old", 120, 3);
  await seed("month", 45, 2);
  await seed("new", 0, 2);
  const counts = await pruneOnce(app.rt);
  // Webhooks: older than 30 days go (old and month); cell attempts: older than 90 (old only).
  expect(counts).toEqual({
    webhookMessages: 5,
    webhookAttempts: 5,
    cellAttempts: 3,
    searchCache: 5,
    auditEntries: 0,
    cellHistories: 0,
    skipped: false,
  });
  expect(await count("webhook_messages")).toBe(2);
  expect(await count("webhook_attempts")).toBe(2);
  expect(await count("cell_runs")).toBe(4);
  expect(await count("search_cache")).toBe(2);
  expect(await pruneOnce(app.rt)).toEqual({
    webhookMessages: 0,
    webhookAttempts: 0,
    cellAttempts: 0,
    searchCache: 0,
    auditEntries: 0,
    cellHistories: 0,
    skipped: false,
  });
});

it("deletes more than one batch in a pass", async () => {
  await sql(
    `INSERT INTO cell_runs (id, row_id, column_id, workspace_id, generation, attempt, provider, model, outcome, created_at)
     SELECT 'bulk_' || g, 'r', 'c', $1, 1, 1, 'openai', 'm', 'done', $2 FROM generate_series(1, $3::int) g`,
    app.workspaceA,
    daysAgo(200),
    PRUNE_BATCH * 2 + 7,
  );
  expect((await pruneOnce(app.rt)).cellAttempts).toBe(PRUNE_BATCH * 2 + 7);
});

it("respects the configured periods, 0 keeping forever", async () => {
  await seed("cfg", 12, 1);
  const rt = (env: Record<string, string>) => ({
    ...app.rt,
    config: { ...app.rt.config, retention: loadConfig(env).retention },
  });
  expect(await pruneOnce(rt({ RETENTION_WEBHOOK_DAYS: "0", RETENTION_CELL_RUN_DAYS: "0" }))).toMatchObject({
    webhookMessages: 0,
    cellAttempts: 0,
  });
  // 11 days also takes the two 45-day-old runs the default 90 kept in the first test.
  expect(await pruneOnce(rt({ RETENTION_WEBHOOK_DAYS: "10", RETENTION_CELL_RUN_DAYS: "11" }))).toMatchObject({
    webhookMessages: 1,
    cellAttempts: 3,
  });
  expect(loadConfig({}).retention).toEqual({
    webhookDays: 30,
    cellAttemptDays: 90,
    historyDays: 90,
    intervalMs: 3_600_000,
  });
});

it("skips the pass while another process holds the retention lock", async () => {
  await seed("locked", 120, 1);
  // Hold the lock in an open transaction, as a pruning process would.
  let release!: () => void;
  const held = app.rt.db.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(727277)`);
    await new Promise<void>((r) => (release = r));
  });
  await new Promise((r) => setTimeout(r, 50));
  const during = app.rt.db.vendor === "postgres" ? await pruneOnce(app.rt) : undefined;
  release();
  await held;
  // PGlite runs one transaction at a time, so only PostgreSQL can show a concurrent pass.
  if (during) expect(during).toMatchObject({ skipped: true, cellAttempts: 0 });
  expect((await pruneOnce(app.rt)).cellAttempts).toBe(1);
});

it("deletes a base's chat history with the base", async () => {
  const { baseId } = await createBase(app, { columns: [{ name: "Name", isPrimary: true }] });
  await sql(
    `INSERT INTO chat_messages (id, base_id, role, content) VALUES ('cm_1', $1, 'user', '"hello"'::jsonb)`,
    baseId,
  );
  expect(await count("chat_messages")).toBe(1);
  expect((await app.api("DELETE", `/api/v1/bases/${baseId}`)).status).toBe(200);
  expect(await count("chat_messages")).toBe(0);
});
