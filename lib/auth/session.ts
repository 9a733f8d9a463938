import { createHash, randomBytes } from "node:crypto";
import { appError } from "../errors.ts";
import type { Runtime } from "../runtime.ts";
import type { Principal } from "./principal.ts";

// A session is a random token in a cookie, exchanged once for an API key. The server keeps only
// the token's hash next to the key id, and checks the key on every request: revoking the key
// ends every session made from it, and signing out deletes the row.

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface NewSession {
  token: string;
  expiresAt: Date;
}

export async function createSession(rt: Runtime, principal: Principal, now = new Date()): Promise<NewSession> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  // Expired rows are swept here rather than by a timer: sign-ins are rare and this keeps the table small.
  await rt.db.prisma.session.deleteMany({ where: { expiresAt: { lt: now } } });
  await rt.db.prisma.session.create({
    data: { tokenHash: hashToken(token), keyId: principal.keyId, workspaceId: principal.workspaceId, expiresAt },
  });
  return { token, expiresAt };
}

export async function principalForSession(rt: Runtime, token: string, now = new Date()): Promise<Principal> {
  const session = await rt.db.prisma.session.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!session || session.expiresAt <= now) throw appError("invalid_session");
  const key = await rt.db.prisma.apiKey.findUnique({
    where: { id: session.keyId },
    select: { revokedAt: true, workspaceId: true },
  });
  if (!key || key.revokedAt || key.workspaceId !== session.workspaceId) throw appError("invalid_session");
  return { workspaceId: session.workspaceId, keyId: session.keyId };
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
