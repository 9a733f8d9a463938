import { appError } from "../errors.ts";
import type { Runtime } from "../runtime.ts";
import { forgetKey } from "./key-cache.ts";
import {
  addMember,
  deleteMember,
  getMember,
  hasOwnerMember,
  type MemberView,
  membershipForSignIn,
  workspacesOf,
} from "./members.ts";
import { openInvitation, useInvitation } from "./invitations.ts";
import { createPasswordReset, usePasswordReset } from "./password-resets.ts";
import { assertStrongPassword, hashPassword, verifyPassword } from "./passwords.ts";
import { isRole, type Role } from "./permissions.ts";
import { deleteMemberSessions, deleteUserSessions } from "./session.ts";
import { createUser, findUser, findUserByEmail, normalizeEmail, setPasswordHash, type UserView } from "./users.ts";
import { assertNotThrottled, clearFailures, recordFailure } from "./password-throttle.ts";

// People's journeys that span tables: signing in by password, accepting an invitation, leaving
// a workspace, resetting a password, and the first owner. Passwords are hashed and checked
// before a transaction opens: Argon2 takes tens of milliseconds and must not hold locks.

export interface Person {
  workspaceId: string;
  userId: string;
  role: string;
}

/** Email and password: the same 401 whether the email is unknown or the password wrong. */
export async function signInWithPassword(
  rt: Runtime,
  input: { email: string; password: string; workspace?: string },
): Promise<Person> {
  const prisma = rt.db.prisma;
  const email = normalizeEmail(input.email);
  assertNotThrottled(email);
  const user = await findUserByEmail(prisma, email);
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) {
    recordFailure(email);
    throw appError("invalid_credentials");
  }
  clearFailures(email);
  const membership = await membershipForSignIn(prisma, user.id, input.workspace);
  if (!membership) throw appError("invalid_credentials", "This account is not a member of that workspace.");
  return { workspaceId: membership.workspaceId, userId: user.id, role: membership.role };
}

/**
 * Someone known by email proves it with their password; a new email makes a user. The same
 * answer, invalid_credentials, for a wrong password as at sign-in.
 */
async function personFor(
  rt: Runtime,
  input: { email: string; name?: string; password: string },
): Promise<{ existing: UserView | null; passwordHash: string | null }> {
  const existing = await findUserByEmail(rt.db.prisma, input.email);
  if (existing) {
    assertNotThrottled(existing.email);
    if (!(await verifyPassword(existing.passwordHash, input.password))) {
      recordFailure(existing.email);
      throw appError("invalid_credentials");
    }
    clearFailures(existing.email);
    return { existing, passwordHash: null };
  }
  assertStrongPassword(input.password);
  return { existing: null, passwordHash: await hashPassword(input.password) };
}

export async function acceptInvitation(
  rt: Runtime,
  input: { token: string; email: string; name?: string; password: string },
): Promise<Person> {
  const invitation = await openInvitation(rt.db.prisma, input.token);
  if (invitation.email && invitation.email !== input.email.trim().toLowerCase())
    throw appError("invalid_invitation", "This invitation is for another email address.");
  if (!isRole(invitation.role)) throw appError("invalid_invitation");
  const role: Role = invitation.role;
  const who = await personFor(rt, input);
  return rt.db.prisma.$transaction(async (tx) => {
    const user = who.existing ?? (await createUser(tx, { ...input, passwordHash: who.passwordHash }));
    await addMember(tx, invitation.workspaceId, user.id, role);
    await useInvitation(tx, invitation.id, user.id);
    return { workspaceId: invitation.workspaceId, userId: user.id, role };
  });
}

/**
 * While a workspace has no owner member, whoever holds its workspace key makes the first owner
 * account (a new user, or an existing one proven by password).
 */
export async function createFirstOwner(
  rt: Runtime,
  workspaceId: string,
  input: { email: string; name?: string; password: string },
): Promise<MemberView> {
  if (await hasOwnerMember(rt.db.prisma, workspaceId))
    throw appError("already_member", "The workspace already has an owner account.");
  const who = await personFor(rt, input);
  return rt.db.prisma.$transaction(async (tx) => {
    // Two first owners at once: the workspace row lock makes the second see the first.
    await tx.$queryRawUnsafe(`SELECT id FROM workspaces WHERE id = $1 FOR UPDATE`, workspaceId);
    if (await hasOwnerMember(tx, workspaceId))
      throw appError("already_member", "The workspace already has an owner account.");
    const user = who.existing ?? (await createUser(tx, { ...input, passwordHash: who.passwordHash }));
    return addMember(tx, workspaceId, user.id, "owner");
  });
}

/** Removes a member: their sessions here end, and the keys they made stop at once. */
export async function removeMember(rt: Runtime, workspaceId: string, userId: string): Promise<{ userId: string }> {
  const keyIds = await rt.db.prisma.$transaction(async (tx) => {
    await deleteMember(tx, workspaceId, userId);
    await deleteMemberSessions(tx, workspaceId, userId);
    const keys = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM api_keys WHERE workspace_id = $1 AND created_by_user_id = $2`,
      workspaceId,
      userId,
    );
    return keys.map((k) => k.id);
  });
  // This process's cache would honour them for up to a second more; others re-read within it.
  for (const id of keyIds) forgetKey(rt.db, id);
  return { userId };
}

/** An owner's reset link for a member of their workspace. */
export async function passwordResetForMember(rt: Runtime, workspaceId: string, userId: string, origin: string) {
  await getMember(rt.db.prisma, workspaceId, userId);
  return createPasswordReset(rt.db.prisma, userId, origin);
}

/** The CLI's reset link, by email. */
export async function passwordResetForEmail(rt: Runtime, email: string, origin: string) {
  const user = await findUserByEmail(rt.db.prisma, email);
  if (!user) throw appError("user_not_found", `No user has the email ${email.trim().toLowerCase()}.`);
  return { ...(await createPasswordReset(rt.db.prisma, user.id, origin)), user: { id: user.id, email: user.email } };
}

/**
 * Sets the new password and ends every session of the user, everywhere. Answers the user and the
 * workspaces they belong to: the new password is theirs in each, so each one's audit log records it.
 */
export async function redeemPasswordReset(
  rt: Runtime,
  token: string,
  password: string,
): Promise<{ userId: string; workspaceIds: string[] }> {
  assertStrongPassword(password);
  const passwordHash = await hashPassword(password);
  const redeemed = await rt.db.prisma.$transaction(async (tx) => {
    const userId = await usePasswordReset(tx, token);
    await setPasswordHash(tx, userId, passwordHash);
    return { userId, workspaceIds: await workspacesOf(tx, userId) };
  });
  await deleteUserSessions(rt, redeemed.userId);
  return redeemed;
}

/** The user a principal names, for GET /session; null for a workspace key. */
export const userOf = (rt: Runtime, userId: string | null): Promise<UserView | null> =>
  userId ? findUser(rt.db.prisma, userId) : Promise.resolve(null);
