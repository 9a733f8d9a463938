import type { Prisma, Tx } from "../db/database.ts";
import { newId } from "../ids.ts";
import type { AuditDraft } from "./summary.ts";

// The one writer of audit_entries (besides retention's deletes). Entries are only inserted: a
// trigger refuses every UPDATE, and no endpoint changes or deletes them.

export interface AuditActor {
  type: "user" | "key";
  id: string;
}

export interface AuditContext {
  workspaceId: string;
  actor: AuditActor;
  ip: string | null;
}

/** The name shown for an actor: a user's email, or a key's name. Looked up once per entry, by primary key. */
async function actorName(tx: Tx, actor: AuditActor): Promise<string> {
  if (actor.type === "key") {
    const key = await tx.apiKey.findUnique({ where: { id: actor.id }, select: { name: true } });
    return key?.name ?? "";
  }
  const user = await tx.user.findUnique({ where: { id: actor.id }, select: { email: true } });
  return user?.email ?? "";
}

export async function recordAudit(tx: Tx, ctx: AuditContext, draft: AuditDraft, at = new Date()): Promise<string> {
  const id = newId.auditEntry();
  await tx.auditEntry.create({
    data: {
      id,
      workspaceId: ctx.workspaceId,
      at,
      actorType: ctx.actor.type,
      actorId: ctx.actor.id,
      actorName: await actorName(tx, ctx.actor),
      action: draft.action,
      targetType: draft.targetType,
      targetId: draft.targetId,
      baseId: draft.baseId,
      summary: (draft.summary ?? undefined) as never,
      ip: ctx.ip,
    },
  });
  return id;
}

/**
 * Records after the change committed. A failure to record is logged with the whole entry and does
 * not turn the answer into an error: the change is done, and a client told otherwise would retry it.
 */
export async function recordAuditAfter(prisma: Prisma, ctx: AuditContext, draft: AuditDraft): Promise<void> {
  try {
    await recordAudit(prisma, ctx, draft);
  } catch (e) {
    console.error("[cellwright] audit entry not recorded:", JSON.stringify({ ...ctx, ...draft }), e);
  }
}

/** Retention: deletes a batch of entries older than each workspace's audit_retention_days. */
export async function pruneAuditEntries(tx: Tx, now: Date, batch: number): Promise<number> {
  return tx.$executeRawUnsafe(
    `DELETE FROM audit_entries WHERE id IN (
       SELECT e.id FROM audit_entries e JOIN workspaces w ON w.id = e.workspace_id
       WHERE w.audit_retention_days IS NOT NULL
         AND e.at < $1::timestamptz - make_interval(days => w.audit_retention_days)
       LIMIT ${Number(batch)})`,
    now,
  );
}
