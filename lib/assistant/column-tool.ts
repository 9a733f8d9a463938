import { z } from "zod";
import { inTransaction } from "../db/work.ts";
import { appError } from "../errors.ts";
import { loadBase, loadColumns } from "../domain/bases.ts";
import { createColumn, deleteColumn, updateColumn } from "../domain/columns.ts";
import { columnOptionsOf, nameKey, AUTO_RUN_MODES, TOOL_NAMES, type ColumnRecord } from "../domain/column-model.ts";
import type { ColumnInput } from "../domain/column-input.ts";
import { COLUMN_TYPE_NAMES } from "../domain/column-types/index.ts";
import type { ToolSession } from "./session.ts";

// manageColumn: the assistant's one tool for columns. Every operation is one transaction through
// the same domain functions as the REST structure API (createColumn, updateColumn, deleteColumn),
// so validation is identical and each change is committed as it happens.

/** A model may send one value where a list is expected ("tools": "web-search"). */
const list = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined || v === null || Array.isArray(v) ? v ?? undefined : [v]), z.array(item).max(50).optional());

export const manageColumnArgs = z.object({
  columnOperation: z.enum(["create", "update", "delete", "move"]).describe("What to do: create a column, update one, delete one, or move one to another position."),
  columnId: z.string().optional().describe("update/delete/move: the id (scol_…) of the column to change. Or use columnName."),
  columnName: z.string().optional().describe("update/delete/move: the current name of the column to change (case-insensitive)."),
  name: z.string().optional().describe("create: the column name (required). update: a new name."),
  type: z.string().optional().describe(`The column type, one of: ${COLUMN_TYPE_NAMES.join(", ")}. Default short-text.`),
  isPrimary: z.boolean().optional().describe("true for the primary column: the main entity of the table. A base has exactly one."),
  isAiEnabled: z.boolean().optional().describe("true when the AI fills this column from its instructions, inputs and tools."),
  instructions: z.string().optional().describe("What the AI should produce for each row, or a description of a manual column."),
  inputColumns: list(z.string()).describe("Names or ids of the columns this column reads as input. Replaces the current list; [] removes all."),
  inputColumnIds: list(z.string()).describe("Same as inputColumns (ids or names)."),
  tools: list(z.union([z.string(), z.object({ name: z.string() })])).describe(
    `Tools the AI may use for this column: ${TOOL_NAMES.join(", ")}. As names or [{ "name": … }]. Replaces the current list.`,
  ),
  columnOptions: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      `Extra settings: model ("provider:model"), autoRun (${AUTO_RUN_MODES.join(", ")}), options (the choices of a select column), … On update they are merged into the current ones; a key set to null is removed.`,
    ),
  position: z.number().int().min(0).optional().describe("0-based position of the column. Required for move; optional for create."),
  index: z.number().int().min(0).optional().describe("Same as position."),
  force: z.boolean().optional().describe("delete: also delete a column other columns use as input (they lose that input)."),
});

export type ManageColumnArgs = z.infer<typeof manageColumnArgs>;

const SETTABLE = ["name", "type", "isPrimary", "isAiEnabled", "instructions", "tools"] as const;

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
    const byId = columns.find((c) => c.id === args.columnId) ?? columns.find((c) => c.nameKey === nameKey(args.columnId!));
    if (byId) return byId;
    throw appError("column_not_found", `No column with id "${args.columnId}" in this base.`);
  }
  const ref = args.columnName ?? args.name;
  if (!ref) throw appError("validation_failed", `${args.columnOperation} needs columnId or columnName to say which column.`);
  const byName = columns.find((c) => c.nameKey === nameKey(ref));
  if (!byName) throw appError("column_not_found", `No column named "${ref}" in this base. Columns: ${columns.map((c) => `"${c.name}"`).join(", ")}.`);
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
  const columns = await inTransaction(rt, async ({ tx }) => loadColumns(tx, (await loadBase(tx, workspaceId, baseId)).sheetId));
  switch (args.columnOperation) {
    case "create": {
      if (!args.name?.trim()) throw appError("validation_failed", "create needs a name for the new column.");
      const input = columnInput(args);
      // A new base starts with a placeholder primary column; the first column created as (or
      // without saying it is not) the primary takes its place instead of clashing with it.
      const placeholder = pristinePlaceholder(s, columns);
      if (placeholder && (args.isPrimary === true || (args.isPrimary === undefined && columns.length === 1))) {
        const column = await inTransaction(rt, (w) => updateColumn(w, workspaceId, baseId, placeholder, { ...input, isPrimary: true }));
        s.placeholderId = undefined;
        s.changed = true;
        return { message: `Created column "${column.name}" as the primary column.`, column };
      }
      const column = await inTransaction(rt, (w) => createColumn(w, workspaceId, baseId, input));
      s.changed = true;
      return { message: `Created column "${column.name}".`, column };
    }
    case "update": {
      const target = findColumn(columns, args);
      // `name` addresses the column when neither columnId nor columnName does; it is not a rename then.
      const renaming = args.columnId !== undefined || args.columnName !== undefined;
      const input = columnInput(renaming ? args : { ...args, name: undefined }, columnOptionsOf(target));
      if (Object.keys(input).length === 0) throw appError("validation_failed", "update needs at least one field to change.");
      const column = await inTransaction(rt, (w) => updateColumn(w, workspaceId, baseId, target.id, input));
      if (target.id === s.placeholderId) s.placeholderId = undefined;
      s.changed = true;
      return { message: `Updated column "${column.name}".`, column };
    }
    case "delete": {
      const target = findColumn(columns, args);
      const done = await inTransaction(rt, (w) => deleteColumn(w, workspaceId, baseId, target.id, args.force === true));
      if (target.id === s.placeholderId) s.placeholderId = undefined;
      s.changed = true;
      const cleaned = done.cleanedDependents.length ? ` ${done.cleanedDependents.length} column(s) lost it as input.` : "";
      return { message: `Deleted column "${target.name}".${cleaned}` };
    }
    case "move": {
      const target = findColumn(columns, args);
      const position = args.position ?? args.index;
      if (position === undefined) throw appError("validation_failed", "move needs position, the new 0-based index of the column.");
      const column = await inTransaction(rt, (w) => updateColumn(w, workspaceId, baseId, target.id, { index: position }));
      s.changed = true;
      return { message: `Moved column "${column.name}" to position ${column.index}.` };
    }
  }
}
