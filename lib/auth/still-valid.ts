import type { Tx } from "../db/database.ts";
import type { Principal } from "./principal.ts";

/**
 * Whether a principal may still act: long-lived streams ask this again and again. A key must be
 * neither revoked nor expired; a person (in person, or as a key's creator) must still be a member.
 */
export async function stillValid(tx: Tx, auth: Principal): Promise<boolean> {
  if (auth.keyId) {
    const now = new Date();
    const live = await tx.apiKey.count({
      where: { id: auth.keyId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    });
    if (live === 0) return false;
  }
  if (!auth.userId) return true;
  const member = await tx.membership.count({ where: { workspaceId: auth.workspaceId, userId: auth.userId } });
  return member > 0;
}
