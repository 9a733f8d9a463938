import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { freshDatabaseTarget } from "../support/database.ts";
import { runCli } from "../../lib/cli/run.ts";
import { debit, refund, topUp } from "../../lib/credits/ledger.ts";

// GET /api/v1/credits (balance and ledger, paged) and the `credits` CLI commands.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({}, { credits: 100 });
});
afterAll(async () => {
  await app?.close();
});

describe("GET /api/v1/credits", () => {
  it("pages the ledger newest first with a stable cursor", async () => {
    const prisma = app.rt.db.prisma;
    for (let i = 0; i < 7; i++) {
      await prisma.$transaction((tx) =>
        debit(tx, { workspaceId: app.workspaceA, amount: 1, reason: `run ${i}`, idempotencyKey: `k${i}` }),
      );
    }
    // The same key is charged once.
    await prisma.$transaction((tx) =>
      debit(tx, { workspaceId: app.workspaceA, amount: 1, reason: "run 6 again", idempotencyKey: "k6" }),
    );
    await prisma.$transaction((tx) =>
      refund(tx, { workspaceId: app.workspaceA, amount: 1, reason: "run 3", idempotencyKey: "k3" }),
    );
    await prisma.$transaction((tx) =>
      refund(tx, { workspaceId: app.workspaceA, amount: 1, reason: "run 3", idempotencyKey: "k3" }),
    );

    const first = await app.api("GET", "/api/v1/credits?limit=3");
    expect(first.status).toBe(200);
    expect(first.body.balance).toBe(94);
    expect(first.body.entries.map((e: any) => [e.amount, e.reason])).toEqual([
      [1, "refund:run 3"],
      [-1, "run 6"],
      [-1, "run 5"],
    ]);
    expect(first.body.entries[0]).toEqual({
      id: expect.stringMatching(/^cr_/),
      amount: 1,
      reason: "refund:run 3",
      baseId: null,
      rowId: null,
      columnId: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const seen = [...first.body.entries];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await app.api("GET", `/api/v1/credits?limit=3&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...page.body.entries);
      cursor = page.body.nextCursor;
    }
    expect(seen.map((e) => e.reason)).toEqual([
      "refund:run 3",
      "run 6",
      "run 5",
      "run 4",
      "run 3",
      "run 2",
      "run 1",
      "run 0",
    ]);
    expect(new Set(seen.map((e) => e.id)).size).toBe(8);
  });

  it("is per workspace, and 400s a bad limit or cursor", async () => {
    expect((await app.api("GET", "/api/v1/credits", { key: app.keyB })).body).toEqual({
      balance: 100,
      entries: [],
      nextCursor: null,
    });
    expect((await app.api("GET", "/api/v1/credits?limit=0")).body.error.code).toBe("invalid_query");
    expect((await app.api("GET", "/api/v1/credits?limit=201")).status).toBe(400);
    expect((await app.api("GET", "/api/v1/credits?cursor=garbage")).body.error.code).toBe("invalid_cursor");
    expect((await app.api("GET", "/api/v1/credits", { key: null })).status).toBe(401);
  });

  it("topUp adds to a limited balance and records the entry", async () => {
    const balance = await app.rt.db.prisma.$transaction((tx) => topUp(tx, app.workspaceB, 5));
    expect(balance).toBe(105);
    expect((await app.api("GET", "/api/v1/credits", { key: app.keyB })).body.entries[0]).toMatchObject({
      amount: 5,
      reason: "top_up",
    });
  });
});

describe("npm run cli -- credits", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "cw-credits-cli-"));
    if (process.env.TEST_DATABASE_URL) {
      const fresh = await freshDatabaseTarget();
      drop = fresh.drop;
      env = { DATABASE_URL: (fresh.target as { url: string }).url };
    } else {
      env = { DATA_DIR: dataDir };
    }
  });
  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  }

  it("adds, sets and shows a workspace's credits", async () => {
    expect((await cli("workspace", "create", "--name", "acme", "--credits", "3")).code).toBe(0);
    const added = await cli("credits", "add", "--workspace", "acme", "--amount", "7");
    expect(added).toMatchObject({ code: 0, out: 'Workspace "acme" now has 10 credits.' });
    expect(JSON.parse((await cli("credits", "show", "--workspace", "acme", "--json")).out)).toEqual({
      workspace: "acme",
      balance: 10,
    });

    expect((await cli("credits", "set", "--workspace", "acme", "--unlimited")).out).toBe(
      'Workspace "acme" now has unlimited credits.',
    );
    const refused = await cli("credits", "add", "--workspace", "acme", "--amount", "7");
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^error: Workspace "acme" has unlimited credits; use "credits set/);
    expect((await cli("credits", "set", "--workspace", "acme", "--amount", "4")).out).toBe(
      'Workspace "acme" now has 4 credits.',
    );
  });

  it("rejects wrong usage with exit code 64", async () => {
    for (const args of [
      ["credits", "add", "--workspace", "acme"],
      ["credits", "add", "--workspace", "acme", "--amount", "0"],
      ["credits", "add", "--workspace", "acme", "--amount", "-2"],
      ["credits", "set", "--workspace", "acme"],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(" ")).toBe(64);
    }
    expect((await cli("credits", "add", "--workspace", "nobody", "--amount", "1")).code).toBe(1);
  });
});
