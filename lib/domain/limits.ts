import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";

// The caps that keep one workspace from growing without bound. Documented in docs/api.md
// ("Limits and quotas"); a request past one answers 409 limit_reached and changes nothing.

export const QUOTAS = {
  columnsPerBase: 500,
  webhooksPerWorkspace: 50,
  apiKeysPerWorkspace: 100,
  secretsPerWorkspace: 100,
  eventStreamsPerKey: 10,
  filesPerBase: 1_000,
  fileBytesPerBase: 1024 * 1024 * 1024,
} as const;

/** The longest value a cell holds, in characters. */
export const MAX_CELL_CHARS = 100_000;

export function assertBelow(count: number, limit: number, what: string): void {
  if (count >= limit)
    throw appError("limit_reached", `${what} (the limit is ${limit.toLocaleString("en-US")}).`, { limit });
}

/**
 * Locks the owner's row for the rest of the transaction, so that concurrent creations are
 * counted one after another and cannot together pass a cap.
 */
export async function lockOwner(tx: Tx, table: "bases" | "workspaces", id: string): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, id);
}
