import type { Database } from "../../db/database.ts";
import { prepared } from "../../db/prepared.ts";

// One round of a process's bookkeeping for one host, in one statement (shared-host-gate.ts):
// tokens of the host's rate_limit_buckets row and slots of host_slots, for the process's calls.

/** How long a want holds: several of the wanting process's longest waits between rounds. */
export const WANT_MS = 250;

export interface RoundInput {
  host: string;
  holder: string;
  /** The host's bucket; "" when the calls have no rate. */
  bucket: string;
  capacity: number;
  perSecond: number;
  /** Calls waiting for a slot and a token, and the concurrency and lease they ask for. */
  want: number;
  concurrency: number;
  leaseMs: number;
  /** This process's slots whose calls are over, to hand on to the waiting calls first. */
  keep: number[];
  /** Its slots to free. */
  release: number[];
  /** Its slots handed on since the last round, whose lease is renewed for their new call. */
  extend: number[];
  extendMs: number[];
  /** Its slots in use, those of `extend` included. */
  inUse: number;
  /** Tokens to take beyond the calls', for slots handed on before the next round. */
  stock: number;
  /** Tokens taken earlier and not used, given back. */
  returned: number;
}

export interface RoundResult {
  /** The slots granted, one per waiting call served, in order. */
  granted: number[];
  /** Waiting calls there were tokens for. */
  n: number;
  /** Tokens in the bucket before this round took any; null when it has no row. */
  available: number | null;
  stock: number;
  /** This process's slots another process wants: freed when their call ends, not handed on. */
  wanted: number[];
}

// The slot CTEs touch disjoint rows: this holder's kept, freed and extended slots (the caller
// passes disjoint lists), free ones, and other holders' held ones.
const ROUND = prepared(`WITH
b AS (
  SELECT LEAST($4::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp() - updated_at)) * $5::float8 + $15::int) AS available
  FROM rate_limit_buckets WHERE name = $3 FOR UPDATE),
g AS (
  SELECT CASE WHEN $4::float8 <= 0 THEN $6::int
    ELSE coalesce((SELECT GREATEST(0, LEAST($6::int, floor(available)))::int FROM b), 0) END AS n),
freed AS (
  UPDATE host_slots SET expires_at = '-infinity'
  WHERE host = $1 AND holder = $2 AND slot = ANY($10::int[])
  RETURNING slot),
extended AS (
  UPDATE host_slots h SET expires_at = clock_timestamp() + make_interval(secs => r.ms / 1000)
  FROM unnest($12::int[], $13::float8[]) AS r(slot, ms)
  WHERE h.host = $1 AND h.holder = $2 AND h.slot = r.slot
  RETURNING h.slot),
renewed AS (
  UPDATE host_slots SET expires_at = CASE WHEN wanted_by <> $2 AND wanted_until > clock_timestamp() THEN '-infinity'
      ELSE clock_timestamp() + make_interval(secs => $8::float8 / 1000) END
  WHERE host = $1 AND holder = $2 AND slot = ANY(($9::int[])[:(SELECT n FROM g)]) AND expires_at > clock_timestamp()
  RETURNING slot, expires_at > clock_timestamp() AS kept),
free AS (
  SELECT s FROM generate_series(0, $7::int - 1) s
  WHERE s <> ALL($9::int[]) AND s <> ALL($10::int[]) AND s <> ALL($12::int[]) AND NOT EXISTS (
    SELECT 1 FROM host_slots h WHERE h.host = $1 AND h.slot = s
      AND (h.expires_at > clock_timestamp() OR (h.wanted_by <> $2 AND h.wanted_until > clock_timestamp())))
  ORDER BY random()
  LIMIT GREATEST(0, (SELECT n FROM g) - (SELECT count(*) FROM renewed WHERE kept))),
taken AS (
  INSERT INTO host_slots (host, slot, holder, expires_at)
  SELECT $1, s, $2, clock_timestamp() + make_interval(secs => $8::float8 / 1000) FROM free
  ON CONFLICT (host, slot) DO UPDATE
    SET holder = excluded.holder, expires_at = excluded.expires_at, wanted_by = NULL, wanted_until = NULL
    WHERE host_slots.expires_at <= clock_timestamp()
      AND (host_slots.wanted_by IS NULL OR host_slots.wanted_by = $2 OR host_slots.wanted_until <= clock_timestamp())
  RETURNING slot),
granted AS (SELECT slot FROM renewed WHERE kept UNION ALL SELECT slot FROM taken),
stocked AS (
  SELECT CASE WHEN $4::float8 <= 0 THEN 0
    ELSE coalesce((SELECT GREATEST(0, LEAST($14::int, floor(available) - (SELECT count(*) FROM granted)))::int FROM b), 0) END AS s),
spent AS (
  UPDATE rate_limit_buckets r
  SET tokens = b.available - (SELECT count(*) FROM granted) - (SELECT s FROM stocked), updated_at = clock_timestamp()
  FROM b WHERE r.name = $3 AND $4::float8 > 0
    AND ((SELECT count(*) FROM granted) + (SELECT s FROM stocked) > 0 OR $15::int > 0)
  RETURNING 1),
marked AS (
  UPDATE host_slots SET wanted_by = $2, wanted_until = clock_timestamp() + make_interval(secs => ${WANT_MS / 1000})
  WHERE host = $1 AND (SELECT count(*) FROM granted) < (SELECT n FROM g) AND slot = (
    SELECT h.slot FROM host_slots h
    WHERE h.host = $1 AND h.holder <> $2 AND h.slot < $7::int AND h.expires_at > clock_timestamp()
      AND (h.wanted_by IS NULL OR h.wanted_by = $2 OR h.wanted_until <= clock_timestamp())
      AND ($11::int + (SELECT count(*) FROM granted) = 0 OR $11::int + (SELECT count(*) FROM granted) + 1 < (
        SELECT count(*) FROM host_slots o WHERE o.host = $1 AND o.holder = h.holder AND o.expires_at > clock_timestamp()))
    ORDER BY h.wanted_by = $2 DESC NULLS LAST, h.expires_at
    LIMIT 1)
  RETURNING slot)
SELECT ARRAY(SELECT slot FROM granted) AS granted, (SELECT n FROM g) AS n, (SELECT available FROM b)::float8 AS available,
  (SELECT s FROM stocked) AS stock,
  ARRAY(SELECT slot FROM host_slots WHERE host = $1 AND holder = $2 AND wanted_by <> $2 AND wanted_until > clock_timestamp()) AS wanted`);

export async function hostRound(db: Pick<Database, "volatile">, r: RoundInput): Promise<RoundResult> {
  const [row] = await db.volatile<RoundResult>(ROUND, [
    r.host,
    r.holder,
    r.bucket,
    r.capacity,
    r.perSecond,
    r.want,
    r.concurrency,
    r.leaseMs,
    r.keep,
    r.release,
    r.inUse,
    r.extend,
    r.extendMs,
    r.stock,
    r.returned,
  ]);
  return row;
}

export function createBucket(db: Pick<Database, "volatile">, name: string, capacity: number) {
  return db.volatile(
    `INSERT INTO rate_limit_buckets (name, tokens, updated_at) VALUES ($1, $2, clock_timestamp()) ON CONFLICT (name) DO NOTHING`,
    [name, capacity],
  );
}
