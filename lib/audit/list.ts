import type { Tx } from "../db/database.ts";
import { decodeTimeCursor, encodeTimeCursor } from "../time-cursor.ts";

// GET /api/v1/audit: a workspace's entries, newest first, filtered, paged by an opaque keyset
// cursor on (at, id), so a page never repeats or skips an entry while new ones arrive.

export const MAX_AUDIT_PAGE = 500;
export const DEFAULT_AUDIT_PAGE = 100;

export interface AuditFilter {
  actorId?: string;
  /** Exact (column.update), or a prefix ending in a dot (column.). */
  action?: string;
  targetId?: string;
  baseId?: string;
  /** From this time on (inclusive). */
  since?: Date;
  /** Before this time (exclusive). */
  until?: Date;
  limit?: number;
  cursor?: string;
}

export interface AuditEntryView {
  id: string;
  at: string;
  actor: { type: "user" | "key"; id: string; name: string };
  action: string;
  target: { type: string; id: string } | null;
  baseId: string | null;
  summary: Record<string, unknown> | null;
  ip: string | null;
}

export async function listAuditEntries(
  tx: Tx,
  workspaceId: string,
  f: AuditFilter,
): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(f.limit ?? DEFAULT_AUDIT_PAGE, 1), MAX_AUDIT_PAGE);
  const after = f.cursor ? decodeTimeCursor(f.cursor) : undefined;
  const at = { ...(f.since ? { gte: f.since } : {}), ...(f.until ? { lt: f.until } : {}) };
  const rows = await tx.auditEntry.findMany({
    where: {
      workspaceId,
      ...(f.actorId ? { actorId: f.actorId } : {}),
      ...(f.action ? { action: f.action.endsWith(".") ? { startsWith: f.action } : f.action } : {}),
      ...(f.targetId ? { targetId: f.targetId } : {}),
      ...(f.baseId ? { baseId: f.baseId } : {}),
      ...(Object.keys(at).length > 0 ? { at } : {}),
      ...(after ? { OR: [{ at: { lt: after.at } }, { at: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    entries: page.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      actor: { type: e.actorType === "user" ? "user" : "key", id: e.actorId, name: e.actorName },
      action: e.action,
      target: e.targetType && e.targetId ? { type: e.targetType, id: e.targetId } : null,
      baseId: e.baseId,
      summary: (e.summary as Record<string, unknown> | null) ?? null,
      ip: e.ip,
    })),
    nextCursor: rows.length > limit ? encodeTimeCursor(page[page.length - 1].at, page[page.length - 1].id) : null,
  };
}
