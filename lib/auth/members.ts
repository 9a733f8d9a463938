import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";
import type { Role } from "./permissions.ts";

// The owner of the memberships table: who belongs to a workspace, with which role. A workspace
// that has owner members always keeps one: demoting or removing the last is refused (last_owner).

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: string;
  createdAt: string;
}

interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: string;
  created_at: Date;
}

const MEMBER_SELECT = `SELECT m.user_id, u.email, u.name, m.role, m.created_at
  FROM memberships m JOIN users u ON u.id = m.user_id`;

const toView = (r: MemberRow): MemberView => ({
  userId: r.user_id,
  email: r.email,
  name: r.name,
  role: r.role,
  createdAt: new Date(r.created_at).toISOString(),
});

export async function listMembers(tx: Tx, workspaceId: string): Promise<MemberView[]> {
  const rows = await tx.$queryRawUnsafe<MemberRow[]>(
    `${MEMBER_SELECT} WHERE m.workspace_id = $1 ORDER BY m.created_at, m.user_id`,
    workspaceId,
  );
  return rows.map(toView);
}

export async function getMember(tx: Tx, workspaceId: string, userId: string): Promise<MemberView> {
  const [row] = await tx.$queryRawUnsafe<MemberRow[]>(
    `${MEMBER_SELECT} WHERE m.workspace_id = $1 AND m.user_id = $2`,
    workspaceId,
    userId,
  );
  if (!row) throw appError("member_not_found");
  return toView(row);
}

/** Every workspace the user belongs to, oldest membership first. */
export async function workspacesOf(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx.membership.findMany({
    where: { userId },
    select: { workspaceId: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => r.workspaceId);
}

export async function isMember(tx: Tx, workspaceId: string, userId: string): Promise<boolean> {
  return (await tx.membership.count({ where: { workspaceId, userId } })) > 0;
}

export async function addMember(tx: Tx, workspaceId: string, userId: string, role: Role): Promise<MemberView> {
  if (await isMember(tx, workspaceId, userId)) throw appError("already_member");
  await tx.membership.create({ data: { workspaceId, userId, role } });
  return getMember(tx, workspaceId, userId);
}

export async function hasOwnerMember(tx: Tx, workspaceId: string): Promise<boolean> {
  return (await tx.membership.count({ where: { workspaceId, role: "owner" } })) > 0;
}

/**
 * Locks the workspace's owner rows, then refuses when `userId` is the only owner. Locking makes
 * two owners demoting each other at once take turns, so one of them stays.
 */
async function assertNotLastOwner(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  const owners = await tx.$queryRawUnsafe<{ user_id: string }[]>(
    `SELECT user_id FROM memberships WHERE workspace_id = $1 AND role = 'owner' FOR UPDATE`,
    workspaceId,
  );
  if (owners.length === 1 && owners[0].user_id === userId)
    throw appError("last_owner", "The workspace's last owner cannot be demoted or removed; make another owner first.");
}

export async function changeRole(tx: Tx, workspaceId: string, userId: string, role: Role): Promise<MemberView> {
  const current = await getMember(tx, workspaceId, userId);
  if (current.role === "owner" && role !== "owner") await assertNotLastOwner(tx, workspaceId, userId);
  await tx.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role } });
  return getMember(tx, workspaceId, userId);
}

/** Deletes the membership (the caller ends the member's sessions and forgets their keys). */
export async function deleteMember(tx: Tx, workspaceId: string, userId: string): Promise<MemberView> {
  const current = await getMember(tx, workspaceId, userId);
  if (current.role === "owner") await assertNotLastOwner(tx, workspaceId, userId);
  await tx.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
  return current;
}

/** The workspace a user signs in to: the named one, else their oldest membership. */
export async function membershipForSignIn(
  tx: Tx,
  userId: string,
  workspaceName?: string,
): Promise<{ workspaceId: string; role: string } | null> {
  const [row] = await tx.$queryRawUnsafe<{ workspace_id: string; role: string }[]>(
    `SELECT m.workspace_id, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = $1 AND ($2::text IS NULL OR w.name = $2::text)
      ORDER BY m.created_at, m.workspace_id LIMIT 1`,
    userId,
    workspaceName ?? null,
  );
  return row ? { workspaceId: row.workspace_id, role: row.role } : null;
}
