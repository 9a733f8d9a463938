import type { Tx } from "../db/database.ts";
import { decodeTimeCursor, encodeTimeCursor } from "../time-cursor.ts";
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

export async function listCredits(
  tx: Tx,
  workspaceId: string,
  opts: { limit?: number; cursor?: string } = {},
): Promise<CreditsPage> {
  const limit = Math.min(Math.max(opts.limit ?? DEFAULT_PAGE, 1), MAX_PAGE);
  const after = opts.cursor ? decodeTimeCursor(opts.cursor) : undefined;
  const rows = await tx.creditEntry.findMany({
    where: {
      workspaceId,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
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
    nextCursor:
      rows.length > limit ? encodeTimeCursor(page[page.length - 1].createdAt, page[page.length - 1].id) : null,
  };
}
