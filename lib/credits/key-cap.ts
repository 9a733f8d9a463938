import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";

// A key's daily spend cap: the credits charged to the key (credit_entries.key_id) since midnight
// UTC never exceed api_keys.daily_credit_cap. Requests check the estimate before they queue cells;
// the engine checks each charge with the key's row locked, so concurrent runs, and several
// processes on PostgreSQL, take turns and the cap holds exactly.

/** Midnight UTC of the day `now` falls in: when today's spending began. */
export const startOfUtcDay = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

// Reads the partial index on (key_id, created_at). Refunds (positive entries) give credits back.
const SPENT_SQL = `SELECT key_id, GREATEST(0, -COALESCE(sum(amount), 0))::int AS spent FROM credit_entries
  WHERE key_id = ANY($1::text[]) AND created_at >= $2 GROUP BY key_id`;

/** Credits charged to each of these keys today (keys without charges are absent). */
export async function spentTodayByKey(tx: Tx, keyIds: readonly string[], now = new Date()) {
  if (keyIds.length === 0) return new Map<string, number>();
  const rows = await tx.$queryRawUnsafe<{ key_id: string; spent: number }[]>(
    SPENT_SQL,
    [...keyIds],
    startOfUtcDay(now),
  );
  return new Map(rows.map((r) => [r.key_id, Number(r.spent)]));
}

export interface KeyRoom {
  cap: number;
  spentToday: number;
  /** What the key may still spend today. */
  left: number;
}

async function rooms(tx: Tx, keyIds: readonly string[], lock: boolean): Promise<Map<string, KeyRoom>> {
  const ids = [...new Set(keyIds)].sort();
  if (ids.length === 0) return new Map();
  // In id order, so two transactions never wait on each other in a cycle; only capped keys are locked.
  const caps = await tx.$queryRawUnsafe<{ id: string; cap: number }[]>(
    `SELECT id, daily_credit_cap AS cap FROM api_keys WHERE id = ANY($1::text[]) AND daily_credit_cap IS NOT NULL
     ORDER BY id${lock ? " FOR UPDATE" : ""}`,
    ids,
  );
  const spent = await spentTodayByKey(
    tx,
    caps.map((c) => c.id),
  );
  return new Map(
    caps.map((c) => {
      const s = spent.get(c.id) ?? 0;
      return [c.id, { cap: c.cap, spentToday: s, left: Math.max(0, c.cap - s) }];
    }),
  );
}

/**
 * Locks the capped keys among these and says what each may still spend today. Call it inside the
 * transaction that records the charges: the lock is held until they commit.
 */
export const lockKeyRooms = (tx: Tx, keyIds: readonly string[]) => rooms(tx, keyIds, true);

/** The key's room today, or null when it has no cap. */
export async function keyRoom(tx: Tx, keyId: string, lock = false): Promise<KeyRoom | null> {
  return (await rooms(tx, [keyId], lock)).get(keyId) ?? null;
}

/**
 * Refuses work whose estimated cost is more than the key may still spend today (402
 * key_spend_cap_reached). With lock, the key stays locked until the transaction ends: for a charge
 * made right after, in the same transaction.
 */
export async function assertKeyRoom(
  tx: Tx,
  keyId: string | null | undefined,
  estimate: number,
  opts: { lock?: boolean } = {},
): Promise<void> {
  if (!keyId || estimate <= 0) return;
  const room = await keyRoom(tx, keyId, opts.lock);
  if (!room || estimate <= room.left) return;
  throw appError(
    "key_spend_cap_reached",
    `This would cost up to ${estimate} credits; the key has ${room.left} of its daily ${room.cap} left (resets at midnight UTC).`,
    { cap: room.cap, spentToday: room.spentToday },
  );
}
