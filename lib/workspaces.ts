import type { Prisma, Tx } from "./db/database.ts";
import { newId } from "./ids.ts";
import { appError } from "./errors.ts";
import { createApiKey, hashKey } from "./auth/api-keys.ts";

export async function createWorkspace(tx: Tx, name: string, credits?: number) {
  const existing = await tx.workspace.findUnique({ where: { name } });
  if (existing) throw appError("duplicate_workspace", `A workspace named "${name}" already exists.`);
  const workspace = await tx.workspace.create({
    data: { id: newId.workspace(), name, credits: credits === undefined ? null : BigInt(credits) },
  });
  const key = await createApiKey(tx, workspace.id, "first key");
  return { workspace: { id: workspace.id, name: workspace.name }, key };
}

/**
 * The first start: when no workspace exists at all, creates "default" (with INITIAL_CREDITS) and
 * returns it; null otherwise. Two processes starting together create it once (unique name).
 */
export async function createFirstWorkspace(
  prisma: Prisma,
  credits?: number,
): Promise<{ id: string; name: string } | null> {
  if ((await prisma.workspace.count()) > 0) return null;
  try {
    const ws = await prisma.workspace.create({
      data: { id: newId.workspace(), name: "default", credits: credits === undefined ? null : BigInt(credits) },
    });
    return { id: ws.id, name: ws.name };
  } catch (e) {
    if ((e as { code?: string }).code === "P2002") return null;
    throw e;
  }
}

export async function findWorkspaceByName(tx: Tx, name: string) {
  const ws = await tx.workspace.findUnique({ where: { name } });
  if (!ws) throw appError("workspace_not_found", `No workspace is named "${name}".`);
  return ws;
}

/**
 * API_KEY makes sure a workspace "default" exists with that key. Idempotent: a second start
 * with the same key changes nothing.
 */
export async function seedFromConfig(
  prisma: Prisma,
  config: { seedApiKey?: string; initialCredits?: number },
): Promise<void> {
  const key = config.seedApiKey;
  if (!key) return;
  const hash = hashKey(key);
  await prisma.$transaction(async (tx) => {
    if (await tx.apiKey.findUnique({ where: { hash } })) return;
    let ws = await tx.workspace.findUnique({ where: { name: "default" } });
    if (!ws) {
      const credits = config.initialCredits;
      ws = await tx.workspace.create({
        data: { id: newId.workspace(), name: "default", credits: credits === undefined ? null : BigInt(credits) },
      });
    }
    await createApiKey(tx, ws.id, "API_KEY", key);
  });
}

export interface WorkspaceSettings {
  id: string;
  name: string;
  auditRetentionDays: number | null;
  /** null means unlimited. */
  credits: number | null;
}

const settingsOf = (ws: { id: string; name: string; auditRetentionDays: number | null; credits: bigint | null }) => ({
  id: ws.id,
  name: ws.name,
  auditRetentionDays: ws.auditRetentionDays,
  credits: ws.credits === null ? null : Number(ws.credits),
});

export async function getWorkspaceSettings(tx: Tx, workspaceId: string): Promise<WorkspaceSettings> {
  const ws = await tx.workspace.findUnique({ where: { id: workspaceId } });
  if (!ws) throw appError("workspace_not_found");
  return settingsOf(ws);
}

/** Renames the workspace or changes how long its audit entries are kept (null: forever). */
export async function updateWorkspaceSettings(
  tx: Tx,
  workspaceId: string,
  patch: { name?: string; auditRetentionDays?: number | null },
): Promise<WorkspaceSettings> {
  if (patch.name !== undefined) {
    const other = await tx.workspace.findUnique({ where: { name: patch.name }, select: { id: true } });
    if (other && other.id !== workspaceId)
      throw appError("duplicate_workspace", `A workspace named "${patch.name}" already exists.`);
  }
  try {
    return settingsOf(await tx.workspace.update({ where: { id: workspaceId }, data: patch }));
  } catch (e) {
    // Two renames to one name at once: the unique index decides.
    if ((e as { code?: string }).code === "P2002") throw appError("duplicate_workspace");
    throw e;
  }
}
