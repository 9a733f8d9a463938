import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Database, Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { returnLeases } from "../domain/cells/index.ts";
import { releaseAllLeases } from "../webhooks/claim-messages.ts";
import { releaseImportLeases } from "../imports/store.ts";

// A move is not a crash: imported running cells run again without counting against their attempts.
const NEVER_ABANDON = 2_147_483_647;

// Moving a Cellwright database from the embedded PGlite to PostgreSQL (or back): every table of
// the product as JSON lines, one row a line, in foreign-key order. The first line describes the
// export, the last one counts it, so a truncated file is refused. Rows are written and read
// with PostgreSQL's own JSON conversions (row_to_json, json_populate_recordset), so every column
// type survives without a per-table mapping.

export const EXPORT_FORMAT = "cellwright-export";
export const EXPORT_VERSION = 1;

/** Exported tables, parents before children, with the key they are paged by. */
export const EXPORTED_TABLES: { name: string; key: string[] }[] = [
  { name: "workspaces", key: ["id"] },
  { name: "users", key: ["id"] },
  { name: "memberships", key: ["workspace_id", "user_id"] },
  { name: "api_keys", key: ["id"] },
  { name: "bases", key: ["id"] },
  { name: "views", key: ["id"] },
  { name: "sheets", key: ["id"] },
  { name: "columns", key: ["id"] },
  { name: "rows", key: ["id"] },
  { name: "runs", key: ["id"] },
  { name: "cells", key: ["row_id", "column_id"] },
  { name: "cell_runs", key: ["id"] },
  { name: "credit_entries", key: ["id"] },
  { name: "chat_messages", key: ["id"] },
  { name: "webhook_endpoints", key: ["id"] },
  { name: "webhook_messages", key: ["id"] },
  { name: "webhook_attempts", key: ["id"] },
  { name: "files", key: ["id"] },
  { name: "review_actions", key: ["id"] },
  { name: "imports", key: ["id"] },
  { name: "evaluations", key: ["id"] },
  { name: "evaluation_items", key: ["evaluation_id", "row_id"] },
  { name: "finds", key: ["id"] },
  { name: "find_candidates", key: ["id"] },
  { name: "schedules", key: ["id"] },
  { name: "audit_entries", key: ["id"] },
  // Ciphertext only: it decrypts with the same key, so SECRETS_KEY (or DATA_DIR's secrets.key)
  // moves with the file; under another key, delete the secrets and create them again.
  { name: "workspace_secrets", key: ["id"] },
];

/**
 * Left out on purpose: browser sessions and one-time links (sign-in, invitation, password reset:
 * make new ones), caches, live limiter state and 24-hour idempotency keys.
 */
export const SKIPPED_TABLES = [
  "_cellwright_migrations",
  "sessions",
  "sign_in_tokens",
  "invitations",
  "password_resets",
  "search_cache",
  "rate_limit_buckets",
  "api_rate_buckets",
  "http_cache",
  "host_slots",
  "idempotency_keys",
];

const PAGE = 2_000;
const BATCH_ROWS = 1_000;
const BATCH_BYTES = 4 * 1024 * 1024;

interface Header {
  format: string;
  version: number;
  exportedAt: string;
  migrations: string[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function appliedMigrations(tx: Tx): Promise<string[]> {
  const rows = await tx.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM "_cellwright_migrations" ORDER BY name`);
  return rows.map((r) => r.name);
}

/** Refuses to run when the database has a table this code does not know how to move. */
async function assertKnownTables(tx: Tx) {
  const rows = await tx.$queryRawUnsafe<{ name: string }[]>(
    `SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const known = new Set([...EXPORTED_TABLES.map((t) => t.name), ...SKIPPED_TABLES]);
  const unknown = rows.map((r) => r.name).filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw appError("internal_error", `The database has tables export/import does not know: ${unknown.join(", ")}.`);
}

/** Writes every exported table to `file`; returns the rows written per table. */
export async function exportDatabase(db: Database, file: string): Promise<Record<string, number>> {
  // One snapshot for the whole file, so it is consistent even if the source is still in use.
  return db.prisma.$transaction((tx) => exportTables(tx, file), {
    isolationLevel: "RepeatableRead",
    maxWait: 60_000,
    timeout: 6 * 60 * 60 * 1000,
  });
}

async function exportTables(tx: Tx, file: string): Promise<Record<string, number>> {
  await assertKnownTables(tx);
  const out = createWriteStream(file, { encoding: "utf8" });
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  const header: Header = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    migrations: await appliedMigrations(tx),
  };
  await write(JSON.stringify(header));
  const counts: Record<string, number> = {};
  for (const table of EXPORTED_TABLES) {
    counts[table.name] = 0;
    const keys = table.key.map(q).join(", ");
    let after: unknown[] | undefined;
    for (;;) {
      const where = after ? `WHERE (${keys}) > (${table.key.map((_, i) => `$${i + 1}`).join(", ")})` : "";
      const rows = await tx.$queryRawUnsafe<{ j: string; k: unknown[] }[]>(
        `SELECT row_to_json(t)::text AS j, ARRAY[${table.key.map((k) => `t.${q(k)}::text`).join(", ")}] AS k
         FROM ${q(table.name)} t ${where} ORDER BY ${keys} LIMIT ${PAGE}`,
        ...(after ?? []),
      );
      for (const r of rows) await write(`{"t":${JSON.stringify(table.name)},"r":${r.j}}`);
      counts[table.name] += rows.length;
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1].k;
    }
  }
  await write(JSON.stringify({ end: true, counts }));
  out.end();
  await once(out, "finish");
  return counts;
}

/**
 * Reads an export into this database, which must be empty, in one transaction: all or nothing.
 * Work that was running when the source stopped is queued again; leases are cleared.
 */
export async function importDatabase(db: Database, file: string): Promise<Record<string, number>> {
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = parseLine(first.done ? "" : first.value) as Header | undefined;
  if (header?.format !== EXPORT_FORMAT) throw appError("validation_failed", `${file} is not a Cellwright export.`);
  if (header.version !== EXPORT_VERSION)
    throw appError(
      "validation_failed",
      `Export format version ${header.version} is not supported (this version reads ${EXPORT_VERSION}).`,
    );

  return db.prisma.$transaction(
    async (tx) => {
      await assertKnownTables(tx);
      const here = await appliedMigrations(tx);
      if (here.join() !== header.migrations.join()) {
        throw appError(
          "validation_failed",
          "The export comes from a different version of Cellwright (its migrations differ); run the same version on both sides.",
        );
      }
      for (const t of EXPORTED_TABLES) {
        const [{ any }] = await tx.$queryRawUnsafe<{ any: boolean }[]>(
          `SELECT EXISTS (SELECT 1 FROM ${q(t.name)}) AS any`,
        );
        if (any)
          throw appError(
            "validation_failed",
            `The target database is not empty (table ${t.name} has rows); import needs a new, empty database (with API_KEY unset).`,
          );
      }
      const order = new Map(EXPORTED_TABLES.map((t, i) => [t.name, i]));
      const counts: Record<string, number> = Object.fromEntries(EXPORTED_TABLES.map((t) => [t.name, 0]));
      let table: string | undefined;
      let batch: string[] = [];
      let bytes = 0;
      let trailer: { end: true; counts: Record<string, number> } | undefined;
      const flush = async () => {
        if (!table || batch.length === 0) return;
        // Generated columns (rows.search_text) are computed by the target, never inserted.
        const cols = (await storedColumns(tx, table)).map(q).join(", ");
        await tx.$executeRawUnsafe(
          `INSERT INTO ${q(table)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${q(table)}, $1::json)`,
          `[${batch.join(",")}]`,
        );
        counts[table] += batch.length;
        batch = [];
        bytes = 0;
      };
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const line = next.value;
        if (line.trim() === "") continue;
        if (trailer) throw appError("validation_failed", "The export has data after its end marker.");
        if (line.startsWith('{"end":')) {
          trailer = parseLine(line) as typeof trailer;
          continue;
        }
        const m = /^\{"t":"([a-z_]+)","r":(.*)\}$/.exec(line);
        if (!m || !order.has(m[1]))
          throw appError("validation_failed", `Unexpected line in the export: ${line.slice(0, 80)}`);
        if (m[1] !== table) {
          await flush();
          if (table && order.get(m[1])! < order.get(table)!)
            throw appError("validation_failed", "The export's tables are out of order.");
          table = m[1];
        }
        batch.push(m[2]);
        bytes += m[2].length;
        if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
      }
      await flush();
      if (!trailer) throw appError("validation_failed", "The export is incomplete (no end marker); export again.");
      for (const t of EXPORTED_TABLES) {
        if ((trailer.counts[t.name] ?? 0) !== counts[t.name])
          throw appError(
            "validation_failed",
            `The export is damaged: ${t.name} has ${counts[t.name]} rows, the end marker says ${trailer.counts[t.name]}.`,
          );
      }
      // Insertion-order sequences continue after the imported rows.
      for (const t of ["rows", "chat_messages"]) {
        await tx.$executeRawUnsafe(
          `SELECT setval(pg_get_serial_sequence('${q(t)}', 'seq'), COALESCE((SELECT max(seq) FROM ${q(t)}), 0) + 1, false)`,
        );
      }
      // The source was stopped: whatever it was running runs again here, and nobody holds a lease.
      await returnLeases(tx, { expiredOnly: false, maxAttempts: NEVER_ABANDON });
      await releaseAllLeases(tx);
      await releaseImportLeases(tx);
      return counts;
    },
    { maxWait: 60_000, timeout: 6 * 60 * 60 * 1000 },
  );
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

async function storedColumns(tx: Tx, table: string): Promise<string[]> {
  const rows = await tx.$queryRawUnsafe<{ name: string }[]>(
    `SELECT column_name::text AS name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    table,
  );
  return rows.map((r) => r.name);
}
