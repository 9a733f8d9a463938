import { createHash, randomBytes } from "node:crypto";
import { appError, isAppError } from "../errors.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "../db/database.ts";
import type { Principal } from "./principal.ts";
import { KEY_SELECT, type KeyRow, keyPrincipal } from "./key-principal.ts";
import { isRole, ROLE_PERMISSIONS } from "./permissions.ts";

// A session is a random token in a cookie. The server keeps only the token's hash, next to the
// key it was made from (sign-in with a key) or the user it is for (password, single sign-on).
// Every request checks the key or the membership again: revoking the key, or removing the member,
// ends the session; signing out deletes the row.

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface NewSession {
  token: string;
  expiresAt: Date;
}

/** A session for a principal: a key's (keyId) or, when keyId is null, its user's. */
export async function createSession(
  rt: Runtime,
  principal: Pick<Principal, "workspaceId" | "keyId" | "userId">,
  now = new Date(),
): Promise<NewSession> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  // Expired rows are swept here rather than by a timer: sign-ins are rare and this keeps the table small.
  await rt.db.prisma.session.deleteMany({ where: { expiresAt: { lt: now } } });
  await rt.db.prisma.session.create({
    data: {
      tokenHash: hashToken(token),
      keyId: principal.keyId,
      userId: principal.keyId ? null : principal.userId,
      workspaceId: principal.workspaceId,
      expiresAt,
    },
  });
  return { token, expiresAt };
}

export async function principalForSession(rt: Runtime, token: string, now = new Date()): Promise<Principal> {
  const session = await rt.db.prisma.session.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!session || session.expiresAt <= now) throw appError("invalid_session");
  if (session.keyId) return keySessionPrincipal(rt, session.keyId, session.workspaceId, now);
  if (!session.userId) throw appError("invalid_session");
  return userPrincipal(rt, session.workspaceId, session.userId);
}

async function keySessionPrincipal(rt: Runtime, keyId: string, workspaceId: string, now: Date) {
  const [row] = await rt.db.prisma.$queryRawUnsafe<KeyRow[]>(`${KEY_SELECT} WHERE k.id = $1`, keyId);
  if (!row || row.workspace_id !== workspaceId) throw appError("invalid_session");
  try {
    return keyPrincipal(row, now.getTime());
  } catch (e) {
    if (isAppError(e) && e.status === 401) throw appError("invalid_session");
    throw e;
  }
}

/** A member acting in person: their role's permissions, every base. */
export async function userPrincipal(rt: Runtime, workspaceId: string, userId: string): Promise<Principal> {
  const member = await rt.db.prisma.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true },
  });
  if (!member || !isRole(member.role)) throw appError("invalid_session");
  return {
    workspaceId,
    keyId: null,
    userId,
    actorId: userId,
    role: member.role,
    permissions: ROLE_PERMISSIONS[member.role],
    baseIds: null,
    dailyCreditCap: null,
  };
}

/** Resolves a cookie token to a principal, or null when it is missing, expired or revoked. */
export async function principalForSessionOrNull(rt: Runtime, token: string | undefined): Promise<Principal | null> {
  if (!token) return null;
  try {
    return await principalForSession(rt, token);
  } catch {
    return null;
  }
}

export async function deleteSession(rt: Runtime, token: string): Promise<void> {
  await rt.db.prisma.session.deleteMany({ where: { tokenHash: hashToken(token) } });
}

/** Sign out everywhere: every session of this user, in every workspace. */
export async function deleteUserSessions(rt: Runtime, userId: string): Promise<number> {
  const { count } = await rt.db.prisma.session.deleteMany({ where: { userId } });
  return count;
}

/** Ends a member's sessions in one workspace (removal): theirs, and those made from their keys. */
export async function deleteMemberSessions(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  await tx.session.deleteMany({ where: { workspaceId, userId } });
  await tx.$executeRawUnsafe(
    `DELETE FROM sessions WHERE workspace_id = $1 AND key_id IN (SELECT id FROM api_keys WHERE workspace_id = $1 AND created_by_user_id = $2)`,
    workspaceId,
    userId,
  );
}

/** Sign out everywhere for a session made from a key: every session of that key. */
export async function deleteKeySessions(rt: Runtime, keyId: string): Promise<number> {
  const { count } = await rt.db.prisma.session.deleteMany({ where: { keyId } });
  return count;
}
