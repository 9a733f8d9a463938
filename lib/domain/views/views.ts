import type { z } from "zod";
import type { Tx } from "../../db/database.ts";
import { Prisma, type View } from "../../db/generated/client.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { loadBase, loadColumns } from "../base-context.ts";
import { parseFilter } from "../query/index.ts";
import { parseSort } from "../query/index.ts";
import type { createViewInputSchema, updateViewInputSchema } from "./schemas.ts";

// Saved views: a filter, a sort, a search and a column layout under a name. The owner of the
// `views` table. Every base has one default view, "All rows", which cannot be deleted.

export const DEFAULT_VIEW_NAME = "All rows";
const MAX_VIEWS_PER_BASE = 100;

export interface ViewJson {
  id: string;
  name: string;
  isDefault: boolean;
  filter: unknown;
  sort: { column: string; direction?: "asc" | "desc" }[];
  search: string;
  hiddenColumnIds: string[];
  columnWidths: Record<string, number>;
}

const toJson = (v: View): ViewJson => ({
  id: v.id,
  name: v.name,
  isDefault: v.isDefault,
  filter: v.filter ?? null,
  sort: (v.sort ?? []) as ViewJson["sort"],
  search: v.search,
  hiddenColumnIds: v.hiddenColumnIds,
  columnWidths: (v.columnWidths ?? {}) as Record<string, number>,
});

/** Creates the default view if the base has none (bases made before views existed get it here). */
async function ensureDefaultView(tx: Tx, baseId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO views (id, base_id, name, is_default) VALUES ($1, $2, $3, true) ON CONFLICT (base_id) WHERE is_default DO NOTHING`,
    newId.view(),
    baseId,
    DEFAULT_VIEW_NAME,
  );
}

export async function listViews(tx: Tx, workspaceId: string, baseId: string): Promise<{ views: ViewJson[] }> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  await ensureDefaultView(tx, baseCtx.baseId);
  const views = await tx.view.findMany({
    where: { baseId: baseCtx.baseId },
    orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }, { id: "asc" }],
  });
  return { views: views.map(toJson) };
}

/** A view of this base (the caller has checked the base is the workspace's). */
export async function loadView(tx: Tx, baseId: string, viewId: string): Promise<ViewJson> {
  const view = await tx.view.findFirst({ where: { id: viewId, baseId } });
  if (!view) throw appError("view_not_found", `No view "${viewId}" in this base.`);
  return toJson(view);
}

export async function getView(tx: Tx, workspaceId: string, baseId: string, viewId: string): Promise<ViewJson> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  return loadView(tx, baseCtx.baseId, viewId);
}

type ViewInput = z.infer<typeof updateViewInputSchema>;

/** A view's filter and sort must make sense for the base's columns when they are saved. */
async function checkAgainstColumns(tx: Tx, sheetId: string, input: ViewInput) {
  const columns = await loadColumns(tx, sheetId);
  if (input.filter !== undefined && input.filter !== null) parseFilter(input.filter, columns);
  if (input.sort) parseSort(input.sort, columns);
}

const data = (input: ViewInput) => ({
  ...(input.name !== undefined ? { name: input.name } : {}),
  ...(input.filter !== undefined ? { filter: input.filter === null ? Prisma.DbNull : (input.filter as object) } : {}),
  ...(input.sort !== undefined ? { sort: input.sort } : {}),
  ...(input.search !== undefined ? { search: input.search } : {}),
  ...(input.hiddenColumnIds !== undefined ? { hiddenColumnIds: [...new Set(input.hiddenColumnIds)] } : {}),
  ...(input.columnWidths !== undefined ? { columnWidths: input.columnWidths } : {}),
});

export async function createView(
  tx: Tx,
  workspaceId: string,
  baseId: string,
  input: z.infer<typeof createViewInputSchema>,
): Promise<ViewJson> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  await checkAgainstColumns(tx, baseCtx.sheetId, input);
  await ensureDefaultView(tx, baseCtx.baseId);
  if ((await tx.view.count({ where: { baseId: baseCtx.baseId } })) >= MAX_VIEWS_PER_BASE) {
    throw appError("validation_failed", `A base has at most ${MAX_VIEWS_PER_BASE} views.`);
  }
  const view = await tx.view.create({
    data: { id: newId.view(), baseId: baseCtx.baseId, name: input.name, ...data(input) },
  });
  return toJson(view);
}

export async function updateView(
  tx: Tx,
  workspaceId: string,
  baseId: string,
  viewId: string,
  input: ViewInput,
): Promise<ViewJson> {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  await loadView(tx, baseCtx.baseId, viewId);
  await checkAgainstColumns(tx, baseCtx.sheetId, input);
  const view = await tx.view.update({ where: { id: viewId }, data: { ...data(input), updatedAt: new Date() } });
  return toJson(view);
}

export async function deleteView(tx: Tx, workspaceId: string, baseId: string, viewId: string) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  const view = await loadView(tx, baseCtx.baseId, viewId);
  if (view.isDefault)
    throw appError("default_view", `"${view.name}" is the base's default view; it cannot be deleted.`);
  await tx.view.delete({ where: { id: viewId } });
  return { id: viewId, deleted: true as const };
}
