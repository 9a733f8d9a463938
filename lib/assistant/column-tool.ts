import { z } from "zod";
import { inTransaction, type Work } from "../db/work.ts";
import { appError } from "../errors.ts";
import { loadBase, loadColumns } from "../domain/base-context.ts";
import { createColumn, deleteColumn, updateColumn } from "../domain/columns/index.ts";
import { columnOptionsOf, nameKey, AUTO_RUN_MODES, TOOL_NAMES, type ColumnRecord } from "../domain/column-model.ts";
import { columnFields, type ColumnInput } from "../domain/columns/index.ts";
import { COLUMN_TYPE_NAMES } from "../domain/column-types/index.ts";
import { configuredProviders } from "../domain/model-spec.ts";
import type { ToolOutcome, ToolSession } from "./session.ts";

// manageColumn: the assistant's one tool for columns. Every operation is one transaction through
// the same domain functions as the REST structure API (createColumn, updateColumn, deleteColumn),
// so validation is identical and each change is committed as it happens.

/**
 * A model may send one value where a list is expected ("tools": "web-search"). The list keeps
 * the shared schema's item type and limits.
 */
const orOne = <T extends z.ZodArray>(list: T) =>
  z.preprocess((v) => (v === undefined || v === null || Array.isArray(v) ? (v ?? undefined) : [v]), list.optional());

// Every field comes from the one column schema (columnFields): same limits as REST and the UI,
// with descriptions worded for the model and its extras (columnName, position, single values).
export const manageColumnArgs = z.object({
  columnOperation: z
    .enum(["create", "update", "delete", "move"])
    .describe("What to do: create a column, update one, delete one, or move one to another position."),
  columnId: z
    .string()
    .max(100)
    .optional()
    .describe("update/delete/move: the id (scol_…) of the column to change. Or use columnName."),
  columnName: z
    .string()
    .max(100)
    .optional()
    .describe("update/delete/move: the current name of the column to change (case-insensitive)."),
  name: columnFields.name.optional().describe("create: the column name (required). update: a new name."),
  type: columnFields.type
    .optional()
    .describe(`The column type, one of: ${COLUMN_TYPE_NAMES.join(", ")}. Default short-text.`),
  isPrimary: columnFields.isPrimary
    .optional()
    .describe("true for the primary column: the main entity of the table. A base has exactly one."),
  isAiEnabled: columnFields.isAiEnabled
    .optional()
    .describe("true when the AI fills this column from its instructions, inputs and tools."),
  instructions: columnFields.instructions
    .optional()
    .describe(
      "What the AI should produce for each row, or a description of a manual column (at most 20,000 characters).",
    ),
  inputColumns: orOne(columnFields.inputColumns).describe(
    "Names or ids of the columns this column reads as input. Replaces the current list; [] removes all.",
  ),
  inputColumnIds: orOne(columnFields.inputColumnIds).describe("Same as inputColumns (ids or names)."),
  tools: orOne(columnFields.tools).describe(
    `Tools the AI may use for this column: ${TOOL_NAMES.join(", ")}. As names or [{ "name": … }]. Replaces the current list.`,
  ),
  columnOptions: columnFields.columnOptions
    .optional()
    .describe(
      `Extra settings: model ("provider:model"), autoRun (${AUTO_RUN_MODES.join(", ")}), options (the choices of a select column), … On update they are merged into the current ones; a key set to null is removed.`,
    ),
  fill: columnFields.fill
    .optional()
    .describe(
      'How the column fills itself. A formula: { "kind": "formula", "expression": "<JSONata over the row>" }, e.g. $substringAfter(Email, "@"), Price * Quantity; column names with spaces in backquotes. An HTTP column: { "kind": "http", "request": { "method", "url", "headers", "body" } with {{Column}} and {{secret:NAME}} placeholders, "extract": "<JSONata on the JSON answer>", "notFound", "credits" }. A waterfall: { "kind": "waterfall", "steps": [ http, tool, ai or formula steps, each with an optional "validate" ] }. Its inputs are the columns it names. null turns it back into a column entered by hand.',
    ),
  runIf: columnFields.runIf.optional(),
  position: columnFields.index
    .optional()
    .describe("0-based position of the column. Required for move; optional for create."),
  index: columnFields.index.optional().describe("Same as position."),
  force: z
    .boolean()
    .optional()
    .describe("delete: also delete a column other columns use as input (they lose that input)."),
  confirmed: z
    .boolean()
    .optional()
    .describe(
      "delete: true once the user said yes to deleting a column that holds data. Ask them first: the delete is refused until a later message of theirs.",
    ),
});

export type ManageColumnArgs = z.infer<typeof manageColumnArgs>;

const SETTABLE = ["name", "type", "isPrimary", "isAiEnabled", "instructions", "tools", "fill", "runIf"] as const;

function columnInput(args: ManageColumnArgs, currentOptions?: Record<string, unknown>): ColumnInput {
  const input: ColumnInput = {};
  for (const key of SETTABLE) if (args[key] !== undefined) (input as Record<string, unknown>)[key] = args[key];
  const inputs = args.inputColumns ?? args.inputColumnIds;
  if (args.inputColumns && args.inputColumnIds) input.inputColumns = [...args.inputColumns, ...args.inputColumnIds];
  else if (inputs) input.inputColumns = inputs;
  if (args.columnOptions) input.columnOptions = mergeOptions(currentOptions ?? {}, args.columnOptions);
  const position = args.position ?? args.index;
  if (position !== undefined) input.index = position;
  return input;
}

function mergeOptions(current: Record<string, unknown>, patch: Record<string, unknown>) {
  const merged: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

/** The column an update, delete or move addresses: columnId, else columnName, else name. */
function findColumn(columns: ColumnRecord[], args: ManageColumnArgs): ColumnRecord {
  if (args.columnId) {
    const byId =
      columns.find((c) => c.id === args.columnId) ?? columns.find((c) => c.nameKey === nameKey(args.columnId!));
    if (byId) return byId;
    throw appError("column_not_found", `No column with id "${args.columnId}" in this base.`);
  }
  const ref = args.columnName ?? args.name;
  if (!ref)
    throw appError("validation_failed", `${args.columnOperation} needs columnId or columnName to say which column.`);
  const byName = columns.find((c) => c.nameKey === nameKey(ref));
  if (!byName)
    throw appError(
      "column_not_found",
      `No column named "${ref}" in this base. Columns: ${columns.map((c) => `"${c.name}"`).join(", ")}.`,
    );
  return byName;
}

/** The new base's placeholder column, while nothing has changed or used it. */
function pristinePlaceholder(s: ToolSession, columns: ColumnRecord[]): string | undefined {
  const id = s.placeholderId;
  if (!id || !columns.some((c) => c.id === id && c.isPrimary)) return undefined;
  return columns.some((c) => c.inputColumnIds.includes(id)) ? undefined : id;
}

export async function manageColumn(s: ToolSession, args: ManageColumnArgs) {
  const { rt, workspaceId, baseId } = s;
  // The read and the write share one transaction: the column an operation addresses cannot change
  // or vanish between finding it and changing it.
  const done = await inTransaction(rt, async (w) => {
    const columns = await loadColumns(w.tx, (await loadBase(w.tx, workspaceId, baseId)).sheetId);
    return applyOperation(w, s, columns, args);
  });
  if (done.usedPlaceholder) s.placeholderId = undefined;
  s.changed = true;
  return done.result;
}

async function applyOperation(
  w: Work,
  s: ToolSession,
  columns: ColumnRecord[],
  args: ManageColumnArgs,
): Promise<{ result: ToolOutcome; usedPlaceholder: boolean }> {
  const { workspaceId, baseId } = s;
  const providers = configuredProviders(s.rt.config.ai);
  switch (args.columnOperation) {
    case "create": {
      if (!args.name?.trim()) throw appError("validation_failed", "create needs a name for the new column.");
      const input = columnInput(args);
      // A new base starts with a placeholder primary column; the first column created as (or
      // without saying it is not) the primary takes its place instead of clashing with it.
      const placeholder = pristinePlaceholder(s, columns);
      if (placeholder && (args.isPrimary === true || (args.isPrimary === undefined && columns.length === 1))) {
        const column = await updateColumn(
          w,
          workspaceId,
          baseId,
          placeholder,
          { ...input, isPrimary: true },
          providers,
        );
        return {
          result: { message: `Created column "${column.name}" as the primary column.`, column },
          usedPlaceholder: true,
        };
      }
      const column = await createColumn(w, workspaceId, baseId, input, providers);
      return { result: { message: `Created column "${column.name}".`, column }, usedPlaceholder: false };
    }
    case "update": {
      const target = findColumn(columns, args);
      // `name` addresses the column when neither columnId nor columnName does; it is not a rename then.
      const renaming = args.columnId !== undefined || args.columnName !== undefined;
      const input = columnInput(renaming ? args : { ...args, name: undefined }, columnOptionsOf(target));
      if (Object.keys(input).length === 0)
        throw appError("validation_failed", "update needs at least one field to change.");
      const column = await updateColumn(w, workspaceId, baseId, target.id, input, providers);
      return {
        result: { message: `Updated column "${column.name}".`, column },
        usedPlaceholder: target.id === s.placeholderId,
      };
    }
    case "delete": {
      const target = findColumn(columns, args);
      const filled = await filledRows(w.tx, target);
      // Data is lost for good: the user must say yes in a message of their own, so a confirmation
      // counts only when an earlier turn asked (the model cannot ask and answer in one turn).
      if (filled > 0 && !(args.confirmed && s.confirmable.has(target.id))) {
        const result = {
          message: `Not deleted: "${target.name}" holds data in ${filled} row(s). Ask the user whether to delete it and its data; if they agree, call delete again with confirmed: true.`,
          needsConfirmation: true,
          columnId: target.id,
          rowsWithData: filled,
        };
        return { result, usedPlaceholder: false };
      }
      const deleted = await deleteColumn(w, workspaceId, baseId, target.id, args.force === true);
      const cleaned = deleted.cleanedDependents.length
        ? ` ${deleted.cleanedDependents.length} column(s) lost it as input.`
        : "";
      return {
        result: { message: `Deleted column "${target.name}".${cleaned}` },
        usedPlaceholder: target.id === s.placeholderId,
      };
    }
    case "move": {
      const target = findColumn(columns, args);
      const position = args.position ?? args.index;
      if (position === undefined)
        throw appError("validation_failed", "move needs position, the new 0-based index of the column.");
      const column = await updateColumn(w, workspaceId, baseId, target.id, { index: position }, providers);
      return {
        result: { message: `Moved column "${column.name}" to position ${column.index}.` },
        usedPlaceholder: false,
      };
    }
  }
}

/** Rows where the column holds a value. */
async function filledRows(tx: Work["tx"], column: ColumnRecord): Promise<number> {
  const [{ n }] = await tx.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM rows WHERE sheet_id = $1 AND COALESCE("values"->>$2, '') <> ''`,
    column.sheetId,
    column.id,
  );
  return n;
}
