import type { Tx } from "../../lib/db/database.ts";
import { claimReadyCells } from "../../lib/domain/cells/index.ts";

/**
 * A transaction whose raw queries are planned, not run: each goes through EXPLAIN, its plan's lines
 * are added to `lines`, and it answers `answer` (what the code under test expects to parse).
 */
export function explaining<T extends Tx>(tx: T, lines: string[], answer: unknown[] = []): T {
  return new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop !== "$queryRawUnsafe") return Reflect.get(target, prop, receiver);
      return async (sql: string, ...args: unknown[]) => {
        const out = await target.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${sql}`, ...args);
        lines.push(...out.map((r) => r["QUERY PLAN"]));
        return answer;
      };
    },
  });
}

/** The plan of the embedded queue's claim of 32 cells, as EXPLAIN prints it. */
export async function explainClaim(tx: Tx): Promise<string[]> {
  const lines: string[] = [];
  await claimReadyCells(explaining(tx, lines), "explain", 32, 60_000);
  return lines;
}
