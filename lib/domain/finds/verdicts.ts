import type { Work } from "../../db/work.ts";
import { newId } from "../../ids.ts";
import { storeVerifiedCells } from "../cells/index.ts";
import { loadBase, loadColumns } from "../base-context.ts";
import type { CellMetadata } from "../cell-view.ts";
import type { ColumnRecord } from "../column-model.ts";
import { isGenerated } from "../fill/kinds.ts";
import { inputHashIn } from "../input-hash.ts";
import { applyWrites, ColumnIndex, normalizeCells, storedValues } from "../rows/index.ts";
import type { RunPolicy } from "../runs/index.ts";
import { releaseCandidate, type ClaimedCandidate } from "./candidates.ts";
import { announce, chargeStep, type FindJob, type StepCharge } from "./progress.ts";
import type { CriterionVerdict, Verdict } from "./schemas.ts";

// A verified candidate: its verdicts stored with their charges, and, when it passes, its row added
// through the rows owner in the same transaction, with each criterion's cell holding its verdict,
// reasoning, sources and confidence as an AI cell would. A candidate is added once: its row id is
// written with the row, under the candidate's lease.

export interface VerifiedCandidate {
  verdicts: CriterionVerdict[];
  /** The base's column values read from its pages, by column name. */
  values: Record<string, string>;
  /** Its home page, as fetched. */
  url: string | null;
}

/** A candidate passes when every criterion is yes; one no rejects it; anything else is unclear. */
export function outcomeOf(verdicts: readonly { satisfied: Verdict }[]): "matched" | "rejected" | "unclear" {
  if (verdicts.some((v) => v.satisfied === "no")) return "rejected";
  return verdicts.every((v) => v.satisfied === "yes") ? "matched" : "unclear";
}

class Superseded extends Error {}

/** "stored", "stopped" (the run cannot pay or is not running: handed back) or "superseded" (lease lost). */
export async function storeVerified(
  w: Work,
  find: FindJob,
  candidate: ClaimedCandidate,
  owner: string,
  verified: VerifiedCandidate,
  charges: readonly StepCharge[],
  policy: RunPolicy,
): Promise<"stored" | "stopped" | "superseded"> {
  if ((await chargeStep(w, find, charges)) === "stopped") {
    await releaseCandidate(w.tx, candidate.id, owner, false);
    return "stopped";
  }
  const status = outcomeOf(verified.verdicts);
  const n = await w.tx.$executeRawUnsafe(
    `UPDATE find_candidates SET status = $3, verdicts = $4::jsonb, "values" = $5::jsonb, url = COALESCE($6, url),
       lease_owner = NULL, lease_until = NULL, finished_at = now()
     WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
    candidate.id,
    owner,
    status,
    JSON.stringify(verified.verdicts),
    JSON.stringify(verified.values),
    verified.url,
  );
  // Lost the lease: the charges above roll back with the transaction.
  if (n === 0) throw new Superseded();
  if (!find.preview && (status === "matched" || (status === "unclear" && find.includeUnclear)))
    await addFoundRow(w, find, candidate.id, policy);
  announce(w, find);
  return "stored";
}

export const isSuperseded = (e: unknown) => e instanceof Superseded;

/**
 * Adds a verified candidate's row (a preview's matches are added when it is extended). Its
 * criterion cells are done AI cells, its other AI columns run in the find's run as for any new row.
 */
export async function addFoundRow(
  w: Work,
  find: FindJob,
  candidateId: string,
  policy: RunPolicy,
): Promise<string | null> {
  const [c] = await w.tx.$queryRawUnsafe<
    { name: string; url: string | null; verdicts: CriterionVerdict[]; values: Record<string, string> | null }[]
  >(
    `SELECT name, url, verdicts, "values" FROM find_candidates WHERE id = $1 AND row_id IS NULL FOR UPDATE`,
    candidateId,
  );
  if (!c) return null;
  const baseCtx = await loadBase(w.tx, find.workspaceId, find.baseId);
  const columns = await loadColumns(w.tx, baseCtx.sheetId);
  const verdictOf = new Map(find.criteria.map((k) => [k.columnId, c.verdicts.find((v) => v.criterionId === k.id)]));
  const values = rowValues(columns, c, verdictOf);
  const rowId = newId.row();
  await applyWrites(
    w,
    baseCtx,
    columns,
    { inserts: [{ id: rowId, values }], updates: new Map(), current: new Map() },
    policy,
    "find",
    {
      runId: find.runId,
    },
  );
  await w.tx.$executeRawUnsafe(`UPDATE find_candidates SET row_id = $2 WHERE id = $1`, candidateId, rowId);
  await storeVerifiedCells(
    w.tx,
    [...verdictOf].flatMap(([columnId, verdict]) => {
      const column = columns.find((col) => col.id === columnId);
      if (!column || !verdict) return [];
      return [{ rowId, columnId, metadata: verdictMetadata(verdict), inputHash: inputHashIn(columns, column, values) }];
    }),
  );
  return rowId;
}

/** The row's values: its name and site, what its pages said of the base's columns, and the verdicts. */
function rowValues(
  columns: readonly ColumnRecord[],
  c: { name: string; url: string | null; values: Record<string, string> | null },
  verdictOf: ReadonlyMap<string, CriterionVerdict | undefined>,
) {
  const index = new ColumnIndex(columns);
  const cells: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(c.values ?? {})) {
    const column = index.find(name);
    if (column && !column.isPrimary && !column.fill && !isGenerated(column)) cells[column.name] = value;
  }
  const primary = columns.find((col) => col.isPrimary);
  if (primary) cells[primary.name] = c.name;
  const site = columns.find((col) => col.type === "url" && !col.isPrimary && !isGenerated(col));
  if (site && c.url) cells[site.name] = c.url;
  for (const [columnId, verdict] of verdictOf) {
    const column = columns.find((col) => col.id === columnId);
    if (column && verdict) cells[column.name] = verdict.satisfied;
  }
  // A value the page gave that a column's type refuses is left out (normalizeCells keeps only the
  // values it accepts): one bad value does not lose the row.
  return storedValues(normalizeCells(index, cells).values);
}

function verdictMetadata(v: CriterionVerdict): CellMetadata {
  return {
    sources: v.sources.map((s) => `[${s.title.replace(/[[\]]/g, "")}](${s.url})`),
    excerpts: Object.fromEntries(v.sources.map((s) => [s.url, s.excerpt])),
    additionalDetails: v.reasoning,
    confidenceScore: v.confidence,
  };
}
