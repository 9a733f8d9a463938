import type { Runtime } from "../../runtime.ts";
import { appError, isAppError } from "../../errors.ts";
import { loadBase, loadColumns } from "../../domain/base-context.ts";
import { columnType } from "../../domain/column-types/index.ts";
import type { HttpFill } from "../../domain/fill/schema.ts";
import { fillInputs } from "../../domain/fill/resolve.ts";
import { placeholdersOf } from "../../domain/fill/placeholders.ts";
import { readSecretValues } from "../../secrets/index.ts";
import { callHttp } from "../http/http-call.ts";
import { httpDepsOf } from "../http/deps.ts";
import { readOutputs } from "./outputs.ts";

// "Test on this row": an HTTP column's request sent for one row of the base before the column is
// saved, showing the answer and the value read from it. Nothing is stored and nothing charged
// (the answer may fill the cache, as a cell's would); the provider is called as a cell would call it.

export const PREVIEW_ANSWER_CHARS = 10_000;

export interface FillPreviewInput {
  fill: HttpFill;
  rowId: string;
  /** The column's type, which the value is read as; default short-text. */
  type?: string;
}

export async function previewHttpFill(rt: Runtime, workspaceId: string, baseId: string, input: FillPreviewInput) {
  const type = input.type ?? "short-text";
  if (!columnType(type)) throw appError("unknown_column_type", `Unknown column type "${type}".`);
  const { columns, values } = await rt.db.prisma.$transaction(async (tx) => {
    const baseCtx = await loadBase(tx, workspaceId, baseId);
    const columns = await loadColumns(tx, baseCtx.sheetId);
    await fillInputs(columns, input.fill, "", []);
    const [row] = await tx.$queryRawUnsafe<{ values: Record<string, string> }[]>(
      `SELECT "values" FROM rows WHERE id = $1 AND sheet_id = $2`,
      input.rowId,
      baseCtx.sheetId,
    );
    if (!row) throw appError("row_not_found", `No row "${input.rowId}" in this base.`);
    return { columns, values: row.values };
  });
  const byName = Object.fromEntries(columns.map((c) => [c.name, values[c.id] ?? ""]));
  const secrets = await readSecretValues(
    rt.db.prisma,
    rt.secrets,
    workspaceId,
    placeholdersOf(input.fill.request).secrets,
  );
  try {
    const r = await callHttp(input.fill, { type, columnOptions: {} }, byName, secrets, httpDepsOf(rt, "preview"));
    const host = new URL(r.source.url).host;
    const read =
      r.outcome === "found" && input.fill.outputs
        ? await readOutputs(input.fill.outputs, r.data, columns, host)
        : { values: {} };
    const names = new Map(columns.map((c) => [c.id, c.name]));
    return {
      outcome: r.outcome,
      value: r.value,
      outputs: Object.fromEntries(Object.entries(read.values).map(([id, v]) => [names.get(id) ?? id, v])),
      url: r.source.url,
      status: r.source.status,
      cached: r.source.cached,
      latencyMs: r.source.latencyMs,
      credits: r.credits,
      answer: r.answer.slice(0, PREVIEW_ANSWER_CHARS),
      error: null,
    };
  } catch (e) {
    // The provider's failure is what the preview is for: it is shown, not answered as an error.
    if (!isAppError(e) || e.code === "secret_not_found") throw e;
    return {
      outcome: "error" as const,
      value: "",
      outputs: {},
      url: null,
      status: (e.details as { status?: number } | undefined)?.status ?? null,
      cached: false,
      latencyMs: null,
      credits: 0,
      answer: null,
      error: { code: e.code, message: e.message },
    };
  }
}
