import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../../lib/config.ts";
import { createRuntime, installRuntime, stopRuntime, type Runtime } from "../../lib/runtime.ts";
import { createWorkspace } from "../../lib/workspaces.ts";
import { startEngine } from "../../lib/engine/engine.ts";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { newId } from "../../lib/ids.ts";
import { runCli } from "../../lib/cli/run.ts";
import { EXPORTED_TABLES } from "../../lib/cli/export-import.ts";
import { dispatch } from "../support/router.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { waitFor } from "../support/wait.ts";
import { freshPostgres, pgAdminUrl, skipMessage } from "./support.ts";

// From the embedded database to PostgreSQL: fill a PGlite data directory through the API and the
// engine, export it with the CLI, import it into a fresh PostgreSQL database, and compare every
// exported table row by row; then the same API key reads the same rows from PostgreSQL.

skipMessage("export/import suite");

describe.skipIf(!pgAdminUrl)("npm run cli -- export / import", () => {
  let llm: FakeLlm;
  let dataDir: string;
  let dir: string;
  let target: { url: string; drop: () => Promise<void> };
  let key: string;
  let baseId: string;
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`ERR ${l}`) };

  async function call(rt: Runtime, method: string, p: string, body?: unknown) {
    const restore = installRuntime(rt);
    try {
      const res = await dispatch(
        new Request(`http://localhost${p}`, {
          method,
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );
      return { status: res.status, body: (await res.json()) as any };
    } finally {
      restore();
    }
  }

  beforeAll(async () => {
    llm = await startFakeLlm();
    dataDir = mkdtempSync(path.join(tmpdir(), "cw-export-"));
    dir = mkdtempSync(path.join(tmpdir(), "cw-export-file-"));
    target = await freshPostgres();

    // The source: an embedded database with a bit of everything.
    const rt = await createRuntime(
      loadConfig({
        DATA_DIR: dataDir,
        OPENAI_BASE_URL: llm.baseUrl,
        AI_MODEL: "openai:fake",
        ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1",
      }),
    );
    try {
      const ws = await createWorkspace(rt.db.prisma, "acme", 500);
      key = ws.key.key;
      await startEngine(rt);
      const base = await call(rt, "POST", "/api/v1/bases", {
        baseName: "Moved",
        columns: [
          { name: "Company", isPrimary: true },
          { name: "Summary", isAiEnabled: true, inputColumns: ["Company"] },
          { name: "Notes" },
        ],
      });
      baseId = base.body.baseId;
      const hook = await call(rt, "POST", "/api/v1/webhooks", {
        url: "http://127.0.0.1:9/hook",
        events: ["row.sheet.processed"],
      });
      expect(hook.status).toBe(201);
      await call(rt, "POST", `/api/v1/bases/${baseId}/add-rows`, {
        rows: Array.from({ length: 30 }, (_, i) => ({ cells: { Company: `Co ${i}`, Notes: i % 2 ? "odd" : "" } })),
      });
      await waitFor(
        async () => (await rt.db.prisma.cell.count({ where: { status: "done" } })) === 30,
        "30 cells done",
        30_000,
      );
      await rt.db.prisma.chatMessage.create({
        data: { id: newId.chatMessage(), baseId, role: "user", content: { text: "héllo ✓" } },
      });
      await rt.db.prisma.storedFile.create({
        data: {
          id: newId.file(),
          workspaceId: ws.workspace.id,
          baseId,
          name: "a.pdf",
          contentType: "application/pdf",
          size: 3,
          sha256: "x",
          storagePath: "files/a",
        },
      });
      // One cell left running by a process that stopped: it must run again after the move.
      await rt.db.prisma.$executeRawUnsafe(
        `UPDATE cells SET status = 'running', lease_owner = 'gone', lease_until = now() WHERE row_id = (SELECT id FROM rows ORDER BY seq LIMIT 1)`,
      );
    } finally {
      await stopRuntime(rt);
    }
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    await target?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  // Both sides render times in UTC, so the JSON of equal rows is equal.
  const dump = async (db: Database, table: string) =>
    db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL TIME ZONE 'UTC'`);
      return (await tx.$queryRawUnsafe<{ j: unknown }[]>(`SELECT to_jsonb(t) AS j FROM "${table}" t ORDER BY 1`)).map(
        (r) => r.j,
      );
    });

  it("moves every table from the embedded database to PostgreSQL, exactly", { timeout: 120_000 }, async () => {
    const file = path.join(dir, "export.jsonl");
    expect(await runCli(["export", "--out", file], { DATA_DIR: dataDir }, io)).toBe(0);
    expect(lines.at(-1)).toMatch(/^Exported \d+ records .*rows 30.*cells 30/);
    expect(await runCli(["import", "--in", file], { DATABASE_URL: target.url, DATA_DIR: dataDir }, io)).toBe(0);
    expect(lines.at(-1)).toMatch(/^Imported \d+ records/);

    const source = await openDatabase({ kind: "pglite", dataDir });
    const moved = await openDatabase({ kind: "postgres", url: target.url });
    try {
      for (const t of EXPORTED_TABLES) {
        const a = await dump(source, t.name);
        const b = await dump(moved, t.name);
        if (t.name === "cells") {
          // The only change: the cell that was running is pending again, with no lease.
          const norm = (c: any) => ({
            ...c,
            status: c.status === "running" ? "pending" : c.status,
            lease_owner: null,
            lease_until: null,
            available_at: null,
          });
          expect(b.map(norm), t.name).toEqual(a.map(norm));
          expect(b.filter((c: any) => c.status === "pending")).toHaveLength(1);
        } else {
          expect(b, t.name).toEqual(a);
        }
      }
      expect((await dump(moved, "api_keys")).length).toBe(1);
      expect(await moved.prisma.creditEntry.count({ where: { reason: "cell_run" } })).toBe(30);
      expect(await moved.prisma.webhookMessage.count()).toBe(30);
      // New rows continue the insertion order.
      const [{ next }] = await moved.prisma.$queryRawUnsafe<{ next: bigint }[]>(
        `SELECT nextval(pg_get_serial_sequence('"rows"', 'seq')) AS next`,
      );
      expect(Number(next)).toBe(31);
    } finally {
      await source.close();
      await moved.close();
    }

    // The same key works against PostgreSQL and reads the same rows.
    const rt = await createRuntime(loadConfig({ DATABASE_URL: target.url, DATA_DIR: dataDir }), { queue: "database" });
    try {
      const rows = await call(rt, "GET", `/api/v1/bases/${baseId}/rows`);
      expect(rows.status).toBe(200);
      expect(rows.body.rows).toHaveLength(30);
    } finally {
      await stopRuntime(rt);
    }
  });

  it("refuses a database that is not empty, and a damaged file", async () => {
    const file = path.join(dir, "export.jsonl");
    lines.length = 0;
    expect(await runCli(["import", "--in", file], { DATABASE_URL: target.url, DATA_DIR: dataDir }, io)).toBe(1);
    expect(lines.join("\n")).toMatch(/not empty/);
    const fresh = await freshPostgres();
    try {
      const cut = path.join(dir, "cut.jsonl");
      writeFileSync(cut, readFileSync(file, "utf8").split("\n").slice(0, -2).join("\n"));
      expect(await runCli(["import", "--in", cut], { DATABASE_URL: fresh.url, DATA_DIR: dataDir }, io)).toBe(1);
      expect(lines.join("\n")).toMatch(/incomplete/);
      const db = await openDatabase({ kind: "postgres", url: fresh.url });
      expect(await db.prisma.workspace.count()).toBe(0);
      await db.close();
    } finally {
      await fresh.drop();
    }
  });
});
