import type { Tx } from "../../lib/db/database.ts";
import { claimReadyCells } from "../../lib/domain/cells/index.ts";

/**
 * The plan of the embedded queue's claim of 32 cells, as EXPLAIN prints it (planned, not run):
 * the claim's own statement, its raw query sent through this wrapper.
 */
export async function explainClaim(tx: Tx): Promise<string[]> {
  const lines: string[] = [];
  const explaining = new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop !== "$queryRawUnsafe") return Reflect.get(target, prop, receiver);
      return async (sql: string, ...args: unknown[]) => {
        const out = await target.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql}`, ...args);
        lines.push(...out.map((r) => r["QUERY PLAN"]));
        return [];
      };
    },
  });
  await claimReadyCells(explaining, "explain", 32, 60_000);
  return lines;
}
