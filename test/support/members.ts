import { randomBytes } from "node:crypto";
import type { TestApp } from "./app.ts";
import { createSession } from "../../lib/auth/session.ts";
import { SESSION_COOKIE } from "../../lib/auth/session-cookie.ts";

export interface TestMember {
  userId: string;
  email: string;
  /** Headers that sign a request in as this member (cookie, and this site's origin for writes). */
  headers: Record<string, string>;
}

/** A user with `role` in the workspace, written directly, and a session for them. */
export async function addMember(app: TestApp, workspaceId: string, role: string): Promise<TestMember> {
  const userId = `usr_${randomBytes(8).toString("hex")}`;
  const email = `${role}-${userId}@example.com`;
  await app.rt.db.prisma.user.create({ data: { id: userId, email } });
  await app.rt.db.prisma.membership.create({ data: { workspaceId, userId, role } });
  const { token } = await createSession(app.rt, { workspaceId, keyId: null, userId });
  return { userId, email, headers: { cookie: `${SESSION_COOKIE}=${token}`, origin: "http://localhost" } };
}
