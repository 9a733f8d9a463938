import type { Work } from "../../db/work.ts";
import type { Tx } from "../../db/database.ts";
import { appError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { BaseContext } from "../base-context.ts";
import type { ColumnRecord } from "../column-model.ts";
import type { ColumnIndex } from "./input.ts";
import type { RowValues } from "./view.ts";
import type { RunPolicy, RunTrigger } from "../runs/index.ts";
import { applyWrites, type ApplyOptions } from "./apply.ts";

// Upsert on a natural key (`mergeOn`), as Airtable's fieldsToMergeOn: an input row whose key
// matches an existing row updates that row's supplied cells instead of adding one; a key repeated
// within the same request updates the row its earlier input row made; an input row with an empty
// key value always adds.
// Keys compare the stored (normalised) values exactly, so "Ann@X.com" and "ann@x.com" in an email
// column are one key, as the email type stores the domain in lower case.

export const MAX_MERGE_COLUMNS = 10;

/** The key's columns, by name (NFC, case-insensitive), each once. */
export function mergeKeyColumns(index: ColumnIndex, names: readonly string[]): ColumnRecord[] {
  if (names.length === 0 || names.length > MAX_MERGE_COLUMNS) {
    throw appError("validation_failed", `mergeOn names 1 to ${MAX_MERGE_COLUMNS} columns.`);
  }
  const found = new Map<string, ColumnRecord>();
  for (const name of names) {
    const column = index.find(name);
    if (!column) throw appError("unknown_column", `mergeOn: no column is named "${name}".`, { column: name });
    found.set(column.id, column);
  }
  return [...found.values()];
}

/** An input row's values as a row stores them: no empty cells. */
export function storedValues(values: ReadonlyMap<string, string>): RowValues {
  const stored: RowValues = {};
  for (const [id, v] of values) if (v !== "") stored[id] = v;
  return stored;
}

export interface UpsertResult {
  /** The row each input row went to, in input order. */
  rowIds: string[];
  /** Per input row: whether it added its row or updated one (an existing row, or one an earlier input row added). */
  outcomes: ("created" | "updated")[];
  createdRowIds: string[];
  /** Rows that existed before this request and were updated. */
  updatedRowIds: string[];
  runId: string | null;
  values: Map<string, RowValues>;
}

export async function upsertRows(
  w: Work,
  baseCtx: BaseContext,
  columns: readonly ColumnRecord[],
  key: readonly ColumnRecord[],
  inputs: readonly ReadonlyMap<string, string>[],
  policy: RunPolicy,
  trigger: RunTrigger,
  opts: ApplyOptions = {},
): Promise<UpsertResult> {
  const keyOf = (values: ReadonlyMap<string, string>) => {
    const parts = key.map((c) => values.get(c.id) ?? "");
    return parts.some((p) => p === "") ? null : JSON.stringify(parts);
  };
  const keys = inputs.map(keyOf);
  const existing = await rowsByKey(w.tx, baseCtx.sheetId, key, [
    ...new Set(keys.filter((k): k is string => k !== null)),
  ]);
  const rowOfKey = new Map([...existing].map(([k, r]) => [k, r.id]));
  const current = new Map([...existing.values()].map((r) => [r.id, r.values]));
  const inserted = new Map<string, RowValues>();
  const updates = new Map<string, Map<string, string>>();
  const rowIds: string[] = [];
  const outcomes: UpsertResult["outcomes"] = [];

  inputs.forEach((values, i) => {
    const k = keys[i];
    const target = k === null ? undefined : rowOfKey.get(k);
    if (target === undefined) {
      const id = newId.row();
      inserted.set(id, storedValues(values));
      if (k !== null) rowOfKey.set(k, id);
      rowIds.push(id);
      outcomes.push("created");
      return;
    }
    const added = inserted.get(target);
    if (added) {
      for (const [id, v] of values) {
        if (v === "") delete added[id];
        else added[id] = v;
      }
    } else {
      const merged = updates.get(target) ?? new Map<string, string>();
      for (const [id, v] of values) merged.set(id, v);
      updates.set(target, merged);
    }
    rowIds.push(target);
    outcomes.push("updated");
  });

  const inserts = [...inserted].map(([id, values]) => ({ id, values }));
  const { runId, values } = await applyWrites(
    w,
    baseCtx,
    columns,
    { inserts, updates, current },
    policy,
    trigger,
    opts,
  );
  return { rowIds, outcomes, createdRowIds: [...inserted.keys()], updatedRowIds: [...updates.keys()], runId, values };
}

/** Existing rows by key; when several rows share a key, the oldest one is the key's row. */
async function rowsByKey(tx: Tx, sheetId: string, key: readonly ColumnRecord[], keys: readonly string[]) {
  const found = new Map<string, { id: string; values: RowValues }>();
  if (keys.length === 0) return found;
  const parts = key.map((_, i) => `r."values"->>$${i + 3}`).join(", ");
  const rows = await tx.$queryRawUnsafe<{ k: string[]; id: string; values: RowValues }[]>(
    `SELECT DISTINCT ON (k) jsonb_build_array(${parts}) AS k, r.id, r."values"
     FROM rows r WHERE r.sheet_id = $1 AND jsonb_build_array(${parts}) = ANY($2::jsonb[])
     ORDER BY k, r.seq`,
    sheetId,
    keys,
    ...key.map((c) => c.id),
  );
  for (const r of rows) found.set(JSON.stringify(r.k), { id: r.id, values: { ...(r.values ?? {}) } });
  return found;
}
