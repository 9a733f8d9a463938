import type { Runtime } from "../../lib/runtime.ts";
import { createApiKey } from "../../lib/auth/api-keys.ts";
import { createSession } from "../../lib/auth/session.ts";
import { SESSION_COOKIE } from "../../lib/auth/session-cookie.ts";
import { randomBase62 } from "../../lib/ids.ts";

// The people and keys of the authorisation suites, written straight into the database: a member
// of each role (a users row and a memberships row), their browser sessions, and keys with chosen
// scopes, bases and creators. How they are made is another suite's concern; these only need to
// exist as any real caller would.

export type Headers = Record<string, string>;

const memberEmail = (role: string, userId: string) => `${role}-${userId}@example.test`;

/** A member of the workspace with this role; their user id. */
export async function addMember(rt: Runtime, workspaceId: string, role: string): Promise<string> {
  const id = `usr_${randomBase62(16)}`;
  await rt.db.prisma.user.create({ data: { id, email: memberEmail(role, id), name: `The ${role}` } });
  await rt.db.prisma.membership.create({ data: { workspaceId, userId: id, role } });
  return id;
}

/** The headers of a signed-in browser of this member: the session cookie, and this site's Origin. */
export async function sessionHeaders(rt: Runtime, workspaceId: string, userId: string): Promise<Headers> {
  const { token } = await createSession(rt, { workspaceId, keyId: null, userId });
  return { cookie: `${SESSION_COOKIE}=${token}`, origin: "http://localhost" };
}

export interface TestMember {
  userId: string;
  email: string;
  /** Headers that sign a request in as this member (cookie, and this site's origin for writes). */
  headers: Headers;
}

/** A member with this role, signed in in a browser of theirs. */
export async function memberWithSession(rt: Runtime, workspaceId: string, role: string): Promise<TestMember> {
  const userId = await addMember(rt, workspaceId, role);
  return { userId, email: memberEmail(role, userId), headers: await sessionHeaders(rt, workspaceId, userId) };
}

export interface KeySpec {
  scopes: readonly string[];
  /** Empty or absent: every base. */
  baseIds?: readonly string[];
  /** The member who made it; absent: a workspace key (an owner's, with the scopes it names). */
  createdByUserId?: string;
}

/** A key as a caller sends it. */
export async function makeKey(rt: Runtime, workspaceId: string, spec: KeySpec): Promise<string> {
  const made = await createApiKey(rt.db.prisma, workspaceId, `key ${spec.scopes.join(" ")}`);
  await rt.db.prisma.apiKey.update({
    where: { id: made.id },
    data: {
      scopes: [...spec.scopes],
      baseIds: [...(spec.baseIds ?? [])],
      createdByUserId: spec.createdByUserId ?? null,
    },
  });
  return made.key;
}

export const keyHeaders = (key: string): Headers => ({ "x-api-key": key });
