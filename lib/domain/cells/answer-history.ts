import type { Work } from "../../db/work.ts";
import type { BaseContext } from "../base-context.ts";
import { appendHistory, type CellChange, type HistoryKind } from "../history/append.ts";
import { sameValue } from "../column-types/index.ts";

// The history side of storing answers: which stored answers changed their cell, the record of each,
// and the announcement of the ones that really changed a value a cell already had (cell.changed:
// live views and the webhook). An answer equal to the value before, as its type compares, only
// counts as checked (cells.checked_at).

type Typed = { type: string; columnOptions?: unknown };

export interface WrittenValue {
  baseCtx: BaseContext;
  rowId: string;
  columnId: string;
  kind: HistoryKind;
  runId: string | null;
  /** The API key or user that made the change, when no run did (or with the run its request started). */
  actorId?: string | null;
  column: Typed | undefined;
  before: { value: string; status: string | null };
  after: { value: string; status: string | null; sources?: string[] | null; confidence?: number | null };
  /** Why, when the value is gone: the error code. */
  reason?: string | null;
  /** The model's verdict on a text change (schedule materiality "model"): an immaterial one is recorded, not announced. */
  judged?: { material: boolean; reason: string };
}

/** At most this many cell.changed events per batch go to live views; the webhook gets every one. */
const LIVE_CHANGES = 1_000;
/** What a live event carries of a value; the webhook and the history keep it whole. */
const LIVE_VALUE_CHARS = 500;

const isChange = (w: WrittenValue) =>
  w.before.status !== w.after.status ||
  !(w.column ? sameValue(w.column, w.before.value, w.after.value) : w.before.value === w.after.value);

/** A generated value that replaced another, different one (and, when judged, a material change): what monitors watch for. */
const isRealChange = (w: WrittenValue) =>
  w.kind === "answer" &&
  w.judged?.material !== false &&
  w.before.value !== "" &&
  w.after.value !== "" &&
  !(w.column ? sameValue(w.column, w.before.value, w.after.value) : w.before.value === w.after.value);

export async function recordWrittenValues(w: Work, written: readonly WrittenValue[]): Promise<void> {
  const changes = written.filter(isChange);
  if (changes.length === 0) return;
  for (const [baseId, list] of byBase(changes)) await appendHistory(w.tx, baseId, list.map(toChange));
  const real = changes.filter(isRealChange);
  if (real.length === 0) return;
  await w.tx.$executeRawUnsafe(
    `UPDATE cells SET changed_at = now() WHERE (row_id, column_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    real.map((c) => c.rowId),
    real.map((c) => c.columnId),
  );
  for (const [baseId, list] of byBase(real)) {
    const { workspaceId } = list[0].baseCtx;
    await w.publish({ type: "cells.changed", workspaceId, baseId, changes: list.map(changedPayload) });
    for (const c of list.slice(0, LIVE_CHANGES)) {
      const p = changedPayload(c);
      w.emit({
        type: "cell.changed",
        workspaceId,
        baseId,
        ...p,
        before: p.before.slice(0, LIVE_VALUE_CHARS),
        after: p.after.slice(0, LIVE_VALUE_CHARS),
      });
    }
  }
}

function byBase(values: readonly WrittenValue[]) {
  const out = new Map<string, WrittenValue[]>();
  for (const c of values) {
    const list = out.get(c.baseCtx.baseId);
    if (list) list.push(c);
    else out.set(c.baseCtx.baseId, [c]);
  }
  return out;
}

const toChange = (c: WrittenValue): CellChange => ({
  rowId: c.rowId,
  columnId: c.columnId,
  kind: c.kind,
  before: c.before,
  after: c.after,
  runId: c.runId,
  actorId: c.actorId,
  reason: c.reason ?? (c.judged ? `${c.judged.material ? "material" : "not material"}: ${c.judged.reason}` : null),
});

export const changedPayload = (c: WrittenValue) => ({
  rowId: c.rowId,
  columnId: c.columnId,
  runId: c.runId,
  before: c.before.value,
  after: c.after.value,
  sources: c.after.sources ?? [],
  confidence: c.after.confidence ?? null,
  reason: c.judged?.reason ?? `The value changed, compared as ${c.column?.type ?? "text"}.`,
});
