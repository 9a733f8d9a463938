import pg from "pg";

// AI_CONCURRENCY across workers, as permits: permit i is the session-level advisory lock
// (PERMIT_LOCKS, i), i < cap, held on a connection of its own. Locks are exclusive, so the
// permits held across every worker never exceed the cap; they belong to the session, so a worker
// that dies or loses its connection frees its permits that instant, with no lease to run out.
// A worker starts a model call only while it holds a permit for it; it may claim cells ahead of
// its permits, which is what lets the next call start the moment one answers.

// The two-key form: its own key space, apart from the one-key locks of migrations, claims and sweeps.
export const PERMIT_LOCKS = 727_278;

export interface CallPermits {
  /** Permits this worker holds now: its model calls in flight must not exceed it. */
  readonly held: number;
  /**
   * Takes free permits, or gives back held ones, until `target()` are held (never more than the
   * cap). `target` is read when the change is made, after earlier ones: giving back, it must not
   * be below the calls in flight. Resolves to the permits held.
   */
  want(target: () => number): Promise<number>;
  close(): Promise<void>;
}

export function createCallPermits(url: string, cap: number): CallPermits {
  let client: pg.Client | undefined;
  let held: number[] = [];
  let closed = false;
  let queue = Promise.resolve(0);

  const connection = async () => {
    if (client) return client;
    // An unreachable database fails the attempt (the next claim or poll tries again) rather than
    // holding up every later change of permits, and the worker's stop, behind it.
    const c = new pg.Client({
      connectionString: url,
      application_name: "cellwright-permits",
      connectionTimeoutMillis: 10_000,
    });
    // The session is gone and its locks with it: the worker holds nothing until it takes them anew.
    const lost = () => {
      if (client !== c) return;
      client = undefined;
      held = [];
      c.end().catch(() => undefined);
    };
    c.on("error", lost);
    c.on("end", lost);
    await c.connect();
    client = c;
    return c;
  };

  const adjust = async (wanted: () => number): Promise<number> => {
    const target = Math.max(0, Math.min(wanted(), cap));
    if (closed || target === held.length) return held.length;
    if (target < held.length) {
      // Dropped from the count before the round trip, so no call starts on a permit being given back.
      const give = held.slice(target);
      held = held.slice(0, target);
      await client?.query(`SELECT pg_advisory_unlock(${PERMIT_LOCKS}, i) FROM unnest($1::int[]) i`, [give]);
      return held.length;
    }
    const c = await connection();
    // CASE keeps the held ones out of the try: session locks nest, and a second hold of one would
    // survive its release.
    const { rows } = await c.query<{ i: number }>(
      `SELECT i FROM generate_series(0, $1::int - 1) i
       WHERE CASE WHEN i = ANY($2::int[]) THEN false ELSE pg_try_advisory_lock(${PERMIT_LOCKS}, i) END
       LIMIT $3`,
      [cap, held, target - held.length],
    );
    if (client === c) held = [...held, ...rows.map((r) => r.i)];
    return held.length;
  };

  return {
    get held() {
      return held.length;
    },
    want(target) {
      queue = queue.then(
        () => adjust(target),
        () => adjust(target),
      );
      return queue;
    },
    async close() {
      closed = true;
      await queue.catch(() => undefined);
      const c = client;
      client = undefined;
      held = [];
      await c?.end().catch(() => undefined);
    },
  };
}
