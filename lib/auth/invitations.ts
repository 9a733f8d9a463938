import { createHash, randomBytes } from "node:crypto";
import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Role } from "./permissions.ts";
import { normalizeEmail } from "./users.ts";

// The owner of the invitations table. An invitation is a link with a random token; only its
// sha256 is kept. It lasts 7 days, works once, can be revoked, and may be bound to one email.

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const hashInviteToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface InvitationView {
  id: string;
  role: string;
  email: string | null;
  expiresAt: string;
  createdAt: string;
  usedAt: string | null;
  revokedAt: string | null;
}

interface InvitationRow {
  id: string;
  role: string;
  email: string | null;
  expiresAt: Date;
  createdAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

const toView = (r: InvitationRow): InvitationView => ({
  id: r.id,
  role: r.role,
  email: r.email,
  expiresAt: r.expiresAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  usedAt: r.usedAt?.toISOString() ?? null,
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

export const invitationUrl = (origin: string, token: string) => `${origin}/invite?token=${token}`;

export async function createInvitation(
  tx: Tx,
  input: { workspaceId: string; role: Role; email?: string; invitedBy: string },
  now = new Date(),
): Promise<{ invitation: InvitationView; token: string }> {
  const token = randomBytes(32).toString("base64url");
  const row = await tx.invitation.create({
    data: {
      id: newId.invitation(),
      tokenHash: hashInviteToken(token),
      workspaceId: input.workspaceId,
      role: input.role,
      email: input.email ? normalizeEmail(input.email) : null,
      invitedBy: input.invitedBy,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      createdAt: now,
    },
  });
  return { invitation: toView(row), token };
}

export async function listInvitations(tx: Tx, workspaceId: string): Promise<InvitationView[]> {
  const rows = await tx.invitation.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return rows.map(toView);
}

/** Revokes an invitation; revoking twice keeps the first time. */
export async function revokeInvitation(tx: Tx, workspaceId: string, id: string): Promise<InvitationView> {
  await tx.invitation.updateMany({ where: { id, workspaceId, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await tx.invitation.findFirst({ where: { id, workspaceId } });
  if (!row) throw appError("invitation_not_found");
  return toView(row);
}

export interface OpenInvitation {
  id: string;
  workspaceId: string;
  role: string;
  email: string | null;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

/** The invitation a token opens, while it is unused, unrevoked and unexpired; else invalid_invitation. */
export async function openInvitation(tx: Tx, token: string, now = new Date()): Promise<OpenInvitation> {
  if (!TOKEN_SHAPE.test(token)) throw appError("invalid_invitation");
  const row = await tx.invitation.findUnique({ where: { tokenHash: hashInviteToken(token) } });
  if (!row || row.usedAt || row.revokedAt || row.expiresAt <= now) throw appError("invalid_invitation");
  return { id: row.id, workspaceId: row.workspaceId, role: row.role, email: row.email };
}

/** Marks the invitation used, in one statement, so two acceptances at once cannot both succeed. */
export async function useInvitation(tx: Tx, id: string, userId: string): Promise<void> {
  const count = await tx.$executeRawUnsafe(
    `UPDATE invitations SET used_at = now(), used_by_user_id = $2
      WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
    id,
    userId,
  );
  if (count !== 1) throw appError("invalid_invitation");
}
