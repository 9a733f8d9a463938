import type { Tx } from "../db/database.ts";
import type { BaseRef, CellChangedData } from "../events.ts";
import type { TxReaction } from "../db/work.ts";
import { loadColumns } from "../domain/base-context.ts";
import type { CellState } from "../domain/cell-view.ts";
import { rowJson } from "../domain/rows/index.ts";
import { newId } from "../ids.ts";
import type { WebhookEvent } from "./endpoints.ts";
import { scheduleCompletion } from "../domain/schedules/index.ts";

// The outbox: a message per (event, endpoint) is written in the same transaction as the state
// change that causes it, so a delivery can be neither lost to a crash after the commit nor sent
// for a change that rolled back. The relay sends what is here.

const EVENT: WebhookEvent = "row.sheet.processed";
const CHUNK = 1_000;

/** The endpoints of this base that want the event: enabled, subscribed, and for every base or this one. */
async function subscribers(tx: Tx, ctx: Pick<BaseRef, "workspaceId" | "baseId">, event: WebhookEvent = EVENT) {
  return tx.webhookEndpoint.findMany({
    where: {
      workspaceId: ctx.workspaceId,
      enabled: true,
      events: { has: event },
      OR: [{ baseId: null }, { baseId: ctx.baseId }],
    },
    select: { id: true, expand: true },
  });
}

async function cellStates(tx: Tx, rowIds: string[]): Promise<Map<string, Map<string, CellState>>> {
  const cells = await tx.cell.findMany({
    where: { rowId: { in: rowIds } },
    select: {
      rowId: true,
      columnId: true,
      status: true,
      errorCode: true,
      errorMessage: true,
      metadata: true,
      stale: true,
      verified: true,
    },
  });
  const byRow = new Map<string, Map<string, CellState>>();
  for (const c of cells) {
    let m = byRow.get(c.rowId);
    if (!m) byRow.set(c.rowId, (m = new Map()));
    m.set(c.columnId, c);
  }
  return byRow;
}

/** The exact body that is signed and sent, fixed when the event happens (retries resend it unchanged). */
export function rowProcessedBody(ctx: BaseRef, row: ReturnType<typeof rowJson>, timestamp: string): string {
  return JSON.stringify({ type: EVENT, timestamp, data: { baseId: ctx.baseId, sheetId: ctx.sheetId, row } });
}

/**
 * Writes a `row.sheet.processed` message for each settled row and each subscribed endpoint, with
 * the row's cells as they are in this transaction, standard or expanded per endpoint.
 * Returns how many messages were written.
 */
export async function enqueueRowsProcessed(tx: Tx, ctx: BaseRef, rowIds: readonly string[]): Promise<number> {
  if (rowIds.length === 0) return 0;
  const endpoints = await subscribers(tx, ctx);
  if (endpoints.length === 0) return 0;
  const columns = await loadColumns(tx, ctx.sheetId);
  const wantsExpanded = endpoints.some((e) => e.expand);
  const wantsStandard = endpoints.some((e) => !e.expand);
  const timestamp = new Date().toISOString();
  let written = 0;
  for (let i = 0; i < rowIds.length; i += CHUNK) {
    const ids = rowIds.slice(i, i + CHUNK);
    const rows = await tx.row.findMany({
      where: { id: { in: ids }, sheetId: ctx.sheetId },
      select: { id: true, values: true },
    });
    const states = wantsExpanded ? await cellStates(tx, ids) : undefined;
    const data = [];
    for (const row of rows) {
      const standard = wantsStandard ? rowProcessedBody(ctx, rowJson(columns, row, false), timestamp) : "";
      const expanded = wantsExpanded
        ? rowProcessedBody(ctx, rowJson(columns, row, true, states!.get(row.id) ?? new Map()), timestamp)
        : "";
      for (const e of endpoints) {
        data.push({
          id: newId.webhookMessage(),
          endpointId: e.id,
          workspaceId: ctx.workspaceId,
          eventType: EVENT,
          body: e.expand ? expanded : standard,
        });
      }
    }
    if (data.length > 0) await tx.webhookMessage.createMany({ data });
    written += data.length;
  }
  return written;
}

/** Writes a `run.completed` or `find.completed` message, with the run or find object, for each subscribed endpoint. */
async function enqueueCompleted(
  tx: Tx,
  ctx: Pick<BaseRef, "workspaceId" | "baseId">,
  event: "run.completed" | "find.completed" | "schedule.completed",
  data: Record<string, unknown>,
): Promise<number> {
  const endpoints = await subscribers(tx, ctx, event);
  if (endpoints.length === 0) return 0;
  const body = JSON.stringify({
    type: event,
    timestamp: new Date().toISOString(),
    data: { baseId: ctx.baseId, ...data },
  });
  await tx.webhookMessage.createMany({
    data: endpoints.map((e) => ({
      id: newId.webhookMessage(),
      endpointId: e.id,
      workspaceId: ctx.workspaceId,
      eventType: event,
      body,
    })),
  });
  return endpoints.length;
}

export const enqueueRunCompleted = (
  tx: Tx,
  ctx: Pick<BaseRef, "workspaceId" | "baseId">,
  run: Record<string, unknown>,
) => enqueueCompleted(tx, ctx, "run.completed", { run });

export const enqueueFindCompleted = (
  tx: Tx,
  ctx: Pick<BaseRef, "workspaceId" | "baseId">,
  find: Record<string, unknown>,
) => enqueueCompleted(tx, ctx, "find.completed", { find });

/** Writes one `cell.changed` message per change for each subscribed endpoint: old and new values, sources and why. */
async function enqueueCellsChanged(
  tx: Tx,
  ctx: Pick<BaseRef, "workspaceId" | "baseId">,
  changes: readonly CellChangedData[],
): Promise<number> {
  const endpoints = await subscribers(tx, ctx, "cell.changed");
  if (endpoints.length === 0) return 0;
  const timestamp = new Date().toISOString();
  for (let i = 0; i < changes.length; i += CHUNK) {
    const bodies = changes
      .slice(i, i + CHUNK)
      .map((change) => JSON.stringify({ type: "cell.changed", timestamp, data: { baseId: ctx.baseId, ...change } }));
    await tx.webhookMessage.createMany({
      data: bodies.flatMap((body) =>
        endpoints.map((e) => ({
          id: newId.webhookMessage(),
          endpointId: e.id,
          workspaceId: ctx.workspaceId,
          eventType: "cell.changed",
          body,
        })),
      ),
    });
  }
  return changes.length * endpoints.length;
}

/** A scheduled run's `schedule.completed` message, with its counts (checked, changed, unchanged, failed, credits). */
async function enqueueScheduleCompleted(
  tx: Tx,
  ctx: Pick<BaseRef, "workspaceId" | "baseId">,
  run: Record<string, unknown>,
): Promise<number> {
  const scheduleId = run.scheduleId;
  if (typeof scheduleId !== "string") return 0;
  if ((await subscribers(tx, ctx, "schedule.completed")).length === 0) return 0;
  const completion = await scheduleCompletion(tx, {
    id: String(run.id),
    scheduleId,
    createdAt: String(run.createdAt),
    creditsSpent: Number(run.creditsSpent ?? 0),
  });
  return enqueueCompleted(tx, ctx, "schedule.completed", { ...completion, run });
}

/**
 * The outbox's part of a transaction: rows settled and runs and finds finished in it get their messages in
 * it. Messages written wake the relays after commit (in every process, through the events
 * bridge); a settlement with no subscriber wakes nothing.
 */
export const outboxReaction: TxReaction = async (tx, event) => {
  let written = 0;
  if (event.type === "rows.settled") written = await enqueueRowsProcessed(tx, event.base, event.rowIds);
  else if (event.type === "run.completed")
    written =
      (await enqueueRunCompleted(tx, event, event.run)) + (await enqueueScheduleCompleted(tx, event, event.run));
  else if (event.type === "find.completed") written = await enqueueFindCompleted(tx, event, event.find);
  else if (event.type === "cells.changed") written = await enqueueCellsChanged(tx, event, event.changes);
  return written > 0 ? [{ type: "webhooks.queued" }] : undefined;
};
