import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { balanceOf } from "./ledger.ts";

// GET /api/v1/credits: the balance and the ledger, newest first, paged with an opaque cursor
// (the position after the last entry shown), so pages stay stable while new entries arrive.

export interface CreditEntryView {
  id: string;
  /** Negative for a charge, positive for a top-up or refund. */
  amount: number;
  reason: string;
  baseId: string | null;
  rowId: string | null;
  columnId: string | null;
  createdAt: string;
}

export interface CreditsPage {
  /** null means unlimited. */
  balance: number | null;
  entries: CreditEntryView[];
  nextCursor: string | null;
}

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

function encodeCursor(e: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([e.createdAt.toISOString(), e.id])).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const createdAt = typeof at === "string" ? new Date(at) : new Date(Number.NaN);
    if (typeof id === "string" && !Number.isNaN(createdAt.getTime())) return { createdAt, id };
  } catch {
    // fall through to the error below
  }
  throw appError("invalid_cursor", "cursor is not a cursor this endpoint returned.");
}

export async function listCredits(
  tx: Tx,
  workspaceId: string,
  opts: { limit?: number; cursor?: string } = {},
): Promise<CreditsPage> {
  const limit = Math.min(Math.max(opts.limit ?? DEFAULT_PAGE, 1), MAX_PAGE);
  const after = opts.cursor ? decodeCursor(opts.cursor) : undefined;
  const rows = await tx.creditEntry.findMany({
    where: {
      workspaceId,
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const balance = await balanceOf(tx, workspaceId);
  return {
    balance: balance === -1 ? null : balance,
    entries: page.map((e) => ({
      id: e.id,
      amount: e.amount,
      reason: e.reason,
      baseId: e.baseId,
      rowId: e.rowId,
      columnId: e.columnId,
      createdAt: e.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
  };
}
