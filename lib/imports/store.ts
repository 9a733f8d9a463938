import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { randomBase62 } from "../ids.ts";
import { loadBase } from "../domain/base-context.ts";
import type { ImportOptions } from "./analyze.ts";
import type { ImportFormat } from "./records.ts";

// The imports table: each row is an import job, its queue entry and its progress. Its writers are
// this module and the job (job.ts), which commits progress with each batch of rows.

export const newImportId = () => `imp_${randomBase62(20)}`;

export interface ImportError {
  line: number;
  column: string | null;
  code: string;
  message: string;
}

export type ImportRow = NonNullable<Awaited<ReturnType<Tx["importJob"]["findFirst"]>>>;

export interface ImportView {
  id: string;
  status: "queued" | "running" | "done" | "failed";
  format: ImportFormat;
  fileName: string;
  size: number;
  options: ImportOptions;
  linesTotal: number | null;
  rowsRead: number;
  rowsCreated: number;
  rowsUpdated: number;
  rowsSkipped: number;
  createdColumns: string[];
  ignoredColumns: string[];
  errors: ImportError[];
  runId: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export function toImportView(r: ImportRow): ImportView {
  return {
    id: r.id,
    status: r.status as ImportView["status"],
    format: r.format as ImportFormat,
    fileName: r.fileName,
    size: Number(r.size),
    options: r.options as unknown as ImportOptions,
    linesTotal: r.linesTotal,
    rowsRead: r.rowsRead,
    rowsCreated: r.rowsCreated,
    rowsUpdated: r.rowsUpdated,
    rowsSkipped: r.rowsSkipped,
    createdColumns: r.createdColumns as string[],
    ignoredColumns: r.ignoredColumns as string[],
    errors: r.errors as unknown as ImportError[],
    runId: r.runId,
    createdAt: r.createdAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

export async function insertImport(
  tx: Tx,
  job: {
    id: string;
    workspaceId: string;
    baseId: string;
    format: ImportFormat;
    fileName: string;
    size: number;
    storagePath: string;
    options: ImportOptions;
    keyId?: string | null;
  },
): Promise<ImportRow> {
  return tx.importJob.create({ data: { ...job, size: BigInt(job.size), options: job.options as object } });
}

export async function getImport(tx: Tx, workspaceId: string, baseId: string, id: string): Promise<ImportView> {
  await loadBase(tx, workspaceId, baseId);
  const row = await tx.importJob.findFirst({ where: { id, workspaceId, baseId } });
  if (!row) throw appError("import_not_found", `No import "${id}" in this base.`);
  return toImportView(row);
}

export async function listImports(tx: Tx, workspaceId: string, baseId: string, limit: number): Promise<ImportView[]> {
  await loadBase(tx, workspaceId, baseId);
  const rows = await tx.importJob.findMany({
    where: { workspaceId, baseId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(toImportView);
}

/**
 * Claims one import to work on: a queued one, or one whose worker's lease ran out (it died). The
 * lease is renewed while the import runs; every batch commits only under it (job.ts).
 */
export async function claimImport(tx: Tx, owner: string, leaseMs: number): Promise<ImportRow | null> {
  const [row] = await tx.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE imports SET lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000), attempts = attempts + 1
     WHERE id = (SELECT id FROM imports WHERE status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until <= now())
                 ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    owner,
    leaseMs,
  );
  return row ? tx.importJob.findUnique({ where: { id: row.id } }) : null;
}

/** Renews the leases this worker holds; the imports it no longer holds are returned. */
export async function renewImportLeases(tx: Tx, owner: string, ids: readonly string[], leaseMs: number): Promise<void> {
  if (ids.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE imports SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
     WHERE lease_owner = $1 AND id = ANY($3::text[]) AND status IN ('queued', 'running')`,
    owner,
    leaseMs,
    [...ids],
  );
}

/** On start of a process that owns its database alone: every lease left is a dead process's. */
export async function releaseImportLeases(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE imports SET lease_until = NULL WHERE status IN ('queued', 'running') AND lease_until IS NOT NULL`,
  );
}

/** Ends an import as failed, keeping what its committed batches wrote (none, when it failed in the first pass). */
export async function failImport(tx: Tx, id: string, owner: string, error: ImportError): Promise<ImportRow | null> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE imports SET status = 'failed', finished_at = now(), lease_owner = NULL, lease_until = NULL,
       errors = (errors || jsonb_build_array($3::jsonb)), started_at = COALESCE(started_at, now())
     WHERE id = $1 AND lease_owner = $2 AND status IN ('queued', 'running') RETURNING id`,
    id,
    owner,
    JSON.stringify(error),
  );
  return rows.length > 0 ? tx.importJob.findUnique({ where: { id } }) : null;
}
