import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freshPostgres } from "./rows-floor.ts";
import { cellsOf, COLUMNS } from "./rows-measures.ts";
import { call, startServer } from "./rows-server.ts";

// What bench:peers reads from each system: one row by id under load, and every row of a table of
// `small` and of `big` rows. Every system answers uncompressed, as curl asks by default.

export interface Target {
  name: string;
  /** One row by its id, for autocannon. */
  getOne: { url: string; headers: Record<string, string> };
  /** Reads every row of the small or the big table the fastest way the system documents; returns the count. */
  listAll(which: "small" | "big"): Promise<number>;
  stop(): Promise<void>;
}

export const IDENTITY = { "accept-encoding": "identity" };

/** GET with the system's auth, as JSON; a non-2xx answer throws with its body. */
export async function getJson(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers: { ...IDENTITY, ...headers } });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} → ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Cellwright's production server on PGlite, or on a fresh PostgreSQL database at `pgAdminUrl`. */
export async function startCellwright(
  store: "pglite" | "postgres",
  sizes: { small: number; big: number },
  pgAdminUrl: string,
): Promise<Target> {
  const key = `cw_${randomBytes(24).toString("hex")}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-peers-"));
  const pgdb = store === "postgres" ? await freshPostgres(pgAdminUrl) : undefined;
  const server = await startServer({ DATA_DIR: dataDir, API_KEY: key, ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) });
  const cleanup = async () => {
    await server.stop().catch(() => undefined);
    await pgdb?.drop().catch((e) => console.error("could not drop the bench database:", e));
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const bases: Record<"small" | "big", string> = { small: "", big: "" };
    let oneRowId = "";
    for (const which of ["small", "big"] as const) {
      const base = await call(server, key, "POST", "/api/v1/bases", { baseName: `Peers ${which}`, columns: COLUMNS });
      bases[which] = base.baseId;
      for (let done = 0; done < sizes[which]; done += 10_000) {
        const n = Math.min(10_000, sizes[which] - done);
        const rows = Array.from({ length: n }, (_, i) => ({ cells: cellsOf(done + i + 1) }));
        const res = await call(server, key, "POST", `/api/v1/bases/${base.baseId}/add-rows`, { rows });
        if (which === "small" && done === 0) oneRowId = res.rows[Math.floor(n / 2)].id;
      }
    }
    const headers = { "x-api-key": key };
    return {
      name: store === "pglite" ? "Cellwright (PGlite)" : "Cellwright (PostgreSQL)",
      getOne: { url: `${server.url}/api/v1/bases/${bases.small}/rows/${oneRowId}`, headers },
      // Get Rows streams every row in one answer.
      listAll: async (which) => (await getJson(`${server.url}/api/v1/bases/${bases[which]}/rows`, headers)).rows.length,
      stop: cleanup,
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
