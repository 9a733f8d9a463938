import { createHash, randomBytes } from "node:crypto";
import type { Prisma } from "../db/database.ts";
import { appError } from "../errors.ts";
import { createApiKey } from "./api-keys.ts";
import type { Principal } from "./principal.ts";

// One-time sign-in links: printed once at the first start, and by `npm run cli -- sign-in-link`.
// The link carries a random token; only its sha256 is stored, it expires after 15 minutes, and
// redeeming it is one UPDATE that also marks it used, so no link works twice.
//
// A session always hangs off an API key (revoking the key ends its sessions): a link signs in
// through the workspace's "Browser sign-in" key, made on first use. Its secret is never shown.

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
export const SIGN_IN_KEY_NAME = "Browser sign-in";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The address a browser on this machine reaches the server at: a wildcard listen address becomes loopback. */
export function signInUrl(server: { host: string; port: number }, token: string): string {
  const host = ["0.0.0.0", "::", ""].includes(server.host) ? "127.0.0.1" : server.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${server.port}/sign-in?token=${token}`;
}

export interface SignInLink {
  url: string;
  expiresAt: Date;
  workspace: { id: string; name: string };
}

/** A fresh link for the named workspace, or the oldest one when no name is given. */
export async function createSignInLink(
  prisma: Prisma,
  server: { host: string; port: number },
  workspaceName?: string,
  now = new Date(),
): Promise<SignInLink> {
  const workspace = workspaceName
    ? await prisma.workspace.findUnique({ where: { name: workspaceName } })
    : await prisma.workspace.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  if (!workspace) {
    throw appError(
      "workspace_not_found",
      workspaceName
        ? `No workspace is named "${workspaceName}".`
        : "No workspace exists yet: start the server once (it creates one), or run `workspace create`.",
    );
  }
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);
  // Links that can no longer be used are swept here: they are made rarely.
  await prisma.signInToken.deleteMany({ where: { OR: [{ expiresAt: { lt: now } }, { usedAt: { not: null } }] } });
  await prisma.signInToken.create({ data: { tokenHash: hashToken(token), workspaceId: workspace.id, expiresAt } });
  return { url: signInUrl(server, token), expiresAt, workspace: { id: workspace.id, name: workspace.name } };
}

/** Uses the link's token once: the principal to start a session for, or invalid_sign_in_link. */
export async function redeemSignInToken(
  prisma: Prisma,
  token: string,
): Promise<Pick<Principal, "workspaceId" | "keyId" | "userId">> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw appError("invalid_sign_in_link");
  return prisma.$transaction(async (tx) => {
    const [used] = await tx.$queryRawUnsafe<{ workspace_id: string }[]>(
      `UPDATE sign_in_tokens SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING workspace_id`,
      hashToken(token),
    );
    if (!used) throw appError("invalid_sign_in_link");
    const key =
      (await tx.apiKey.findFirst({
        where: { workspaceId: used.workspace_id, name: SIGN_IN_KEY_NAME, revokedAt: null },
        orderBy: { createdAt: "asc" },
      })) ?? (await createApiKey(tx, used.workspace_id, SIGN_IN_KEY_NAME));
    return { workspaceId: used.workspace_id, keyId: key.id, userId: null };
  });
}
