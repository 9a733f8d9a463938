import { createHash, randomBytes } from "node:crypto";
import type { Tx } from "../db/database.ts";
import { appError } from "../errors.ts";

// The owner of the password_resets table. A reset link carries a random token; only its sha256
// is kept. It lasts an hour and works once. Made by an owner (API) or the CLI, for one user.

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const passwordResetUrl = (origin: string, token: string) => `${origin}/reset-password?token=${token}`;

export async function createPasswordReset(
  tx: Tx,
  userId: string,
  origin: string,
  now = new Date(),
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  // Links that can no longer be used are swept here: they are made rarely.
  await tx.passwordReset.deleteMany({ where: { OR: [{ expiresAt: { lt: now } }, { usedAt: { not: null } }] } });
  await tx.passwordReset.create({ data: { tokenHash: hashToken(token), userId, expiresAt, createdAt: now } });
  return { url: passwordResetUrl(origin, token), expiresAt };
}

/** Uses the token once (one UPDATE decides): the user it resets, or invalid_password_reset. */
export async function usePasswordReset(tx: Tx, token: string): Promise<string> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw appError("invalid_password_reset");
  const [row] = await tx.$queryRawUnsafe<{ user_id: string }[]>(
    `UPDATE password_resets SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
    hashToken(token),
  );
  if (!row) throw appError("invalid_password_reset");
  return row.user_id;
}
