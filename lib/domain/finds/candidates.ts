import type { Tx } from "../../db/database.ts";
import type { Work } from "../../db/work.ts";
import { newId } from "../../ids.ts";
import { leaseFor } from "../cells/index.ts";
import { canonicalKey, normalizeName } from "./keys.ts";
import type { FindJob } from "./progress.ts";

// The one owner of `find_candidates`: what a find came across, each keyed per base so that no
// find of the base verifies it twice, and the worker's queue of verifications.

export interface FoundEntity {
  name: string;
  url: string | null;
  snippet: string | null;
  query: string;
}

export interface ClaimedCandidate {
  id: string;
  name: string;
  url: string | null;
  snippet: string | null;
  attempts: number;
}

/**
 * Records the entities a page of results named. Those the base has (by key or name) are recorded
 * as excluded; those any find of the base met before are left to it, unless that find has stopped
 * without verifying them: a stopped find's leftovers are taken over, and excluded when the base has
 * had them since (rows added between a schedule's executions). Returns how many are new.
 */
export async function insertCandidates(
  w: Work,
  find: FindJob,
  found: readonly FoundEntity[],
  existing: ReadonlySet<string>,
): Promise<number> {
  const fresh = new Map<string, FoundEntity & { key: string; nameKey: string; excluded: boolean }>();
  for (const e of found) {
    const key = canonicalKey(e);
    const name = normalizeName(e.name);
    if (!key || !name || fresh.has(key)) continue;
    const nameKey = `name:${name}`;
    const excluded = find.excludeExisting && (existing.has(key) || existing.has(nameKey));
    fresh.set(key, { ...e, key, nameKey, excluded });
  }
  const list = [...fresh.values()];
  if (list.length === 0) return 0;
  // One entity under two keys (found once by name, once by its domain) is one candidate: a name
  // already met stands for the entity unless both carry different domains.
  const inserted = await w.tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO find_candidates (id, find_id, base_id, run_id, key, name_key, name, url, snippet, query, status)
     SELECT t.id, $1, $2, $3, t.key, t.name_key, t.name, t.url, t.snippet, t.query, t.status
     FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
       AS t(id, key, name_key, name, url, snippet, query, status)
     WHERE NOT EXISTS (
       SELECT 1 FROM find_candidates o WHERE o.base_id = $2
         AND o.key <> t.key AND o.name_key = t.name_key AND (o.key LIKE 'name:%' OR t.key LIKE 'name:%'))
     ON CONFLICT (base_id, key) DO UPDATE SET find_id = excluded.find_id, run_id = excluded.run_id,
       status = excluded.status
       WHERE find_candidates.status = 'pending' AND find_candidates.find_id <> excluded.find_id
         AND EXISTS (SELECT 1 FROM finds f WHERE f.id = find_candidates.find_id AND f.phase = 'done')
     RETURNING id`,
    find.id,
    find.baseId,
    find.runId,
    list.map(() => newId.findCandidate()),
    list.map((c) => c.key),
    list.map((c) => c.nameKey),
    list.map((c) => c.name.slice(0, 300)),
    list.map((c) => c.url?.slice(0, 2_048) ?? null),
    list.map((c) => c.snippet?.slice(0, 1_000) ?? null),
    list.map((c) => c.query.slice(0, 500)),
    list.map((c) => (c.excluded ? "excluded" : "pending")),
  );
  return inserted.length;
}

/** Leases up to `limit` of the find's pending candidates (and those of a dead worker), oldest first. */
export async function claimCandidates(
  tx: Tx,
  find: FindJob,
  owner: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedCandidate[]> {
  if (limit <= 0) return [];
  return tx.$queryRawUnsafe<ClaimedCandidate[]>(
    `UPDATE find_candidates SET status = 'running', lease_owner = $2, lease_until = ${leaseFor("$4")}, run_id = $5
     FROM (SELECT id FROM find_candidates WHERE find_id = $1
             AND (status = 'pending' OR (status = 'running' AND lease_until < now()))
           ORDER BY created_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) t
     WHERE find_candidates.id = t.id
     RETURNING find_candidates.id, find_candidates.name, find_candidates.url, find_candidates.snippet, find_candidates.attempts`,
    find.id,
    owner,
    limit,
    leaseMs,
    find.runId,
  );
}

/** How the find stands: what it has added (or matched, in a preview) and what waits. */
export async function findProgress(tx: Tx, findId: string) {
  const [p] = await tx.$queryRawUnsafe<{ matched: number; added: number; pending: number; verified: number }[]>(
    `SELECT count(*) FILTER (WHERE status = 'matched')::int AS matched, count(row_id)::int AS added,
       count(*) FILTER (WHERE status IN ('pending', 'running'))::int AS pending,
       count(*) FILTER (WHERE status IN ('matched', 'rejected', 'unclear', 'error'))::int AS verified
     FROM find_candidates WHERE find_id = $1`,
    findId,
  );
  return p;
}

/** Back to pending (a transient failure, or the run paused): one attempt spent when `failed`. */
export async function releaseCandidate(tx: Tx, id: string, owner: string, failed: boolean): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE find_candidates SET status = 'pending', lease_owner = NULL, lease_until = NULL, attempts = attempts + $3
     WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
    id,
    owner,
    failed ? 1 : 0,
  );
}

/** A candidate that cannot be verified (its pages fail, or its attempts ran out). */
export async function failCandidate(tx: Tx, id: string, owner: string, error: { code: string; message: string }) {
  await tx.$executeRawUnsafe(
    `UPDATE find_candidates SET status = 'error', error_code = $3, error_message = $4, lease_owner = NULL,
       lease_until = NULL, attempts = attempts + 1, finished_at = now()
     WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
    id,
    owner,
    error.code,
    error.message.slice(0, 1_000),
  );
}
