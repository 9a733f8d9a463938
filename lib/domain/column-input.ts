import { z } from "zod";
import { appError } from "../errors.ts";
import { columnType, COLUMN_TYPE_NAMES } from "./column-types/index.ts";
import { AUTO_RUN_MODES, TOOL_NAMES, nameKey, type ColumnRecord } from "./column-model.ts";
import { findCycle } from "./graph.ts";
import { parseModelSpec } from "../engine/llm/model-spec.ts";

const toolRef = z.union([z.string(), z.object({ name: z.string() }).passthrough()]);

/** What a client (REST, the chat assistant, the UI) may send to create or change a column. */
export const columnInputSchema = z
  .object({
    name: z.string().trim().min(1, "A column name is 1 to 100 characters.").max(100, "A column name is 1 to 100 characters."),
    type: z.string().min(1),
    isPrimary: z.boolean(),
    isAiEnabled: z.boolean(),
    instructions: z.string().max(20_000),
    inputColumnIds: z.array(z.string()).max(50),
    /** Inputs by name or by id; names are resolved against the base. */
    inputColumns: z.array(z.string()).max(50),
    tools: z.array(toolRef).max(TOOL_NAMES.length),
    columnOptions: z.record(z.string(), z.unknown()),
    index: z.number().int().min(0),
  })
  .partial()
  .strict();

export type ColumnInput = z.infer<typeof columnInputSchema>;

export interface ResolvedColumnFields {
  name: string;
  type: string;
  isPrimary: boolean;
  isAiEnabled: boolean;
  instructions: string;
  inputColumnIds: string[];
  tools: string[];
  columnOptions: Record<string, unknown>;
}

/**
 * Validates a column against the rest of its base and returns the fields to store. The one
 * place these rules live; REST, the assistant and the UI all come through here.
 */
export function resolveColumnFields(
  others: readonly ColumnRecord[],
  current: ResolvedColumnFields,
  input: ColumnInput,
  selfId: string,
): ResolvedColumnFields {
  const name = input.name?.trim() ?? current.name;
  if (!name || name.length > 100) throw appError("validation_failed", "A column name is 1 to 100 characters.");
  const clash = others.find((c) => c.id !== selfId && c.nameKey === nameKey(name));
  if (clash) throw appError("duplicate_column_name", `A column named "${clash.name}" already exists in this base.`);

  const type = input.type ?? current.type;
  const typeDef = columnType(type);
  if (!typeDef) {
    throw appError("unknown_column_type", `Unknown column type "${type}". Allowed: ${COLUMN_TYPE_NAMES.join(", ")}.`);
  }

  const tools = input.tools ? resolveTools(input.tools) : current.tools;
  const columnOptions = input.columnOptions ?? current.columnOptions;
  validateColumnOptions(columnOptions);
  const optionProblem = typeDef.validateOptions?.(columnOptions);
  if (optionProblem) throw appError("validation_failed", optionProblem, { field: "columnOptions" });

  const inputColumnIds = resolveInputs(others, input, current.inputColumnIds, selfId);
  const cycle = findCycle([
    ...others.filter((c) => c.id !== selfId),
    { id: selfId, inputColumnIds },
  ]);
  if (cycle) {
    const names = cycle.map((id) => (id === selfId ? name : others.find((c) => c.id === id)?.name ?? id));
    throw appError("dependency_cycle", `These inputs would form a cycle: ${names.join(" → ")}.`, { path: cycle, names });
  }

  return {
    name,
    type,
    isPrimary: input.isPrimary ?? current.isPrimary,
    isAiEnabled: input.isAiEnabled ?? current.isAiEnabled,
    instructions: input.instructions ?? current.instructions,
    inputColumnIds,
    tools,
    columnOptions,
  };
}

function resolveTools(refs: ColumnInput["tools"] & {}): string[] {
  const names = refs.map((t) => (typeof t === "string" ? t : t.name));
  for (const n of names) {
    if (!(TOOL_NAMES as readonly string[]).includes(n)) {
      throw appError("unknown_tool", `Unknown tool "${n}". Allowed: ${TOOL_NAMES.join(", ")}.`);
    }
  }
  return [...new Set(names)];
}

function resolveInputs(others: readonly ColumnRecord[], input: ColumnInput, fallback: string[], selfId: string): string[] {
  if (!input.inputColumnIds && !input.inputColumns) return fallback;
  const refs = [...(input.inputColumnIds ?? []), ...(input.inputColumns ?? [])];
  const ids = refs.map((ref) => {
    if (ref === selfId) return selfId;
    const byId = others.find((c) => c.id === ref);
    const byName = byId ?? others.find((c) => c.nameKey === nameKey(ref));
    if (!byName) throw appError("column_not_found", `Input column "${ref}" is not a column of this base.`, { column: ref });
    return byName.id;
  });
  return [...new Set(ids)];
}

function validateColumnOptions(options: Record<string, unknown>): void {
  if (JSON.stringify(options).length > 20_000) {
    throw appError("validation_failed", "columnOptions is at most 20,000 characters of JSON.", { field: "columnOptions" });
  }
  if (options.model !== undefined) parseModelSpec(String(options.model));
  if (options.autoRun !== undefined && !(AUTO_RUN_MODES as readonly unknown[]).includes(options.autoRun)) {
    throw appError("validation_failed", `columnOptions.autoRun must be one of: ${AUTO_RUN_MODES.join(", ")}.`, {
      field: "columnOptions.autoRun",
    });
  }
}
