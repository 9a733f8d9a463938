import { z } from "zod";
import { appError } from "../../errors.ts";
import { columnType, COLUMN_TYPE_NAMES } from "../column-types/index.ts";
import { AUTO_RUN_MODES, REVIEW_BY, TOOL_NAMES, nameKey, type ColumnRecord } from "../column-model.ts";
import { findCycle } from "../graph.ts";
import { parseModelSpec, type ProviderName } from "../model-spec.ts";
import { fillSchema, isGenerated, type Fill } from "../fill/schema.ts";
import { fillInputs } from "../fill/resolve.ts";
import { checkOutputs, writerEdges } from "../fill/outputs.ts";
import { resolveRunIf, type StoredRunIf } from "./run-if.ts";

const toolRef = z
  .union([
    z.string().max(100).describe("A tool name."),
    z.object({ name: z.string().max(100).describe("A tool name.") }).passthrough(),
  ])
  .describe(`A tool, by name or as { "name": … }: ${TOOL_NAMES.join(", ")}.`);

/**
 * The fields of a column definition, each with its limits. The assistant's manageColumn derives
 * its arguments from these, so the limits cannot diverge between REST, the UI and the chat.
 */
export const columnFields = {
  name: z
    .string()
    .trim()
    .min(1, "A column name is 1 to 100 characters.")
    .max(100, "A column name is 1 to 100 characters.")
    .describe("The column name, 1 to 100 characters, unique in the base (case-insensitively)."),
  type: z
    .string()
    .min(1)
    .max(100)
    .describe(`The column type: ${COLUMN_TYPE_NAMES.join(", ")}. Default short-text.`),
  isPrimary: z.boolean().describe("true for the primary column, the main entity of the table. A base has exactly one."),
  isAiEnabled: z.boolean().describe("true when the AI fills this column from its instructions, inputs and tools."),
  instructions: z
    .string()
    .max(20_000)
    .describe("What the AI should produce for each row, or a description of the column; at most 20,000 characters."),
  inputColumnIds: z
    .array(z.string().max(100).describe("A column id, or name."))
    .max(50)
    .describe("Ids (or names) of the columns this column reads as input; replaces the list."),
  /** Inputs by name or by id; names are resolved against the base. */
  inputColumns: z
    .array(z.string().max(100).describe("A column name, or id."))
    .max(50)
    .describe("Names (or ids) of the columns this column reads as input; replaces the list."),
  tools: z.array(toolRef).max(TOOL_NAMES.length).describe("Tools the AI may use for this column; replaces the list."),
  columnOptions: z
    .record(z.string(), z.unknown())
    .describe(
      `Options: model ("provider:model", or a bare model id read as AI_MODEL is), autoRun (${AUTO_RUN_MODES.join(", ")}), options (the choices of a select column), reviewThreshold (AI columns: done cells below this confidence need review, 0 to 1, default 0.7), reviewBy (model, the default, or calibrated: the threshold applies to the calibrated confidence once the column has 30 reviews). At most 20,000 characters of JSON.`,
    ),
  index: z.number().int().min(0).describe("0-based position of the column; at the end when omitted or larger."),
  fill: fillSchema,
  runIf: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'Generated columns: run only for rows that match this condition, a filter tree of Query Rows (and, or, not; conditions { "column", "op", "value" } or a state such as { "column", "status" } on another AI column), e.g. {"and":[{"column":"Email","op":"isEmpty"},{"column":"Website","op":"isNotEmpty"}]}. A row that does not match gets a skipped cell: no model call, no credits. The columns it names are dependencies, like inputs. Given back with column ids; null removes it.',
    ),
};

/** What a client (REST, the chat assistant, the UI) may send to create or change a column. */
export const columnInputSchema = z
  .object(columnFields)
  .partial()
  .strict()
  .describe("A column definition; every field optional.");

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
  fill: Fill | null;
  runIf: StoredRunIf | null;
}

/**
 * Validates a column against the rest of its base and returns the fields to store. The one
 * place these rules live; REST, the assistant and the UI all come through here.
 */
export async function resolveColumnFields(
  others: readonly ColumnRecord[],
  current: ResolvedColumnFields,
  input: ColumnInput,
  selfId: string,
  /** The deployment's configured providers: a bare model id names the only one, as in AI_MODEL. */
  providers: readonly ProviderName[],
): Promise<ResolvedColumnFields> {
  const name = input.name?.normalize("NFC").trim() ?? current.name;
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
  validateColumnOptions(columnOptions, providers);
  const optionProblem = typeDef.validateOptions?.(columnOptions);
  if (optionProblem) throw appError("validation_failed", optionProblem, { field: "columnOptions" });

  // Parsed here as well as by the endpoints' schemas: a caller inside the app (base creation, an
  // import, a benchmark) must not store a fill that fillOf() would then not read back.
  const fill = input.fill === undefined ? current.fill : parseFill(input.fill);
  const isAiEnabled = input.isAiEnabled ?? (input.fill ? false : current.isAiEnabled);
  if (fill && isAiEnabled) {
    throw appError("validation_failed", "A column is filled either by the AI (isAiEnabled) or by its fill, not both.", {
      field: "fill",
    });
  }
  const generated = isGenerated({ isAiEnabled, fill });
  const stated = resolveInputs(others, input, current.fill?.kind === "formula" ? [] : current.inputColumnIds, selfId);
  const inputColumnIds = fill ? await fillInputs(others, fill, selfId, stated) : stated;
  // A column that stops being generated drops its condition; one sent is checked against the base.
  const runIf =
    input.runIf !== undefined
      ? resolveRunIf(input.runIf, others, { id: selfId, name, generated })
      : generated
        ? current.runIf
        : null;
  if (fill) await checkOutputs(others, fill, selfId);
  const nodes = [
    ...others.filter((c) => c.id !== selfId),
    { id: selfId, name, fill, isAiEnabled, inputColumnIds, runIf },
  ];
  const writers = writerEdges(nodes);
  const cycle = findCycle(nodes.map((n) => ({ ...n, writerColumnIds: writers.get(n.id) ?? [] })));
  if (cycle) {
    const names = cycle.map((id) => (id === selfId ? name : (others.find((c) => c.id === id)?.name ?? id)));
    throw appError(
      "dependency_cycle",
      `These inputs (run condition or outputs) would form a cycle: ${names.join(" → ")}.`,
      {
        path: cycle,
        names,
      },
    );
  }

  return {
    name,
    type,
    isPrimary: input.isPrimary ?? current.isPrimary,
    isAiEnabled,
    instructions: input.instructions ?? current.instructions,
    inputColumnIds,
    tools,
    columnOptions,
    fill,
    runIf,
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

function resolveInputs(
  others: readonly ColumnRecord[],
  input: ColumnInput,
  fallback: string[],
  selfId: string,
): string[] {
  if (!input.inputColumnIds && !input.inputColumns) return fallback;
  const refs = [...(input.inputColumnIds ?? []), ...(input.inputColumns ?? [])];
  const ids = refs.map((ref) => {
    if (ref === selfId) return selfId;
    const byId = others.find((c) => c.id === ref);
    const byName = byId ?? others.find((c) => c.nameKey === nameKey(ref));
    if (!byName)
      throw appError("column_not_found", `Input column "${ref}" is not a column of this base.`, { column: ref });
    return byName.id;
  });
  return [...new Set(ids)];
}

function validateColumnOptions(options: Record<string, unknown>, providers: readonly ProviderName[]): void {
  if (JSON.stringify(options).length > 20_000) {
    throw appError("validation_failed", "columnOptions is at most 20,000 characters of JSON.", {
      field: "columnOptions",
    });
  }
  if (options.model !== undefined) parseModelSpec(String(options.model), providers);
  if (options.autoRun !== undefined && !(AUTO_RUN_MODES as readonly unknown[]).includes(options.autoRun)) {
    throw appError("validation_failed", `columnOptions.autoRun must be one of: ${AUTO_RUN_MODES.join(", ")}.`, {
      field: "columnOptions.autoRun",
    });
  }
  const t = options.reviewThreshold;
  if (t !== undefined && (typeof t !== "number" || !(t >= 0 && t <= 1))) {
    throw appError("validation_failed", "columnOptions.reviewThreshold is a number from 0 to 1 (default 0.7).", {
      field: "columnOptions.reviewThreshold",
    });
  }
  if (options.reviewBy !== undefined && !(REVIEW_BY as readonly unknown[]).includes(options.reviewBy)) {
    throw appError("validation_failed", `columnOptions.reviewBy must be one of: ${REVIEW_BY.join(", ")}.`, {
      field: "columnOptions.reviewBy",
    });
  }
}

function parseFill(raw: unknown): Fill | null {
  const parsed = fillSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = ["fill", ...(issue?.path ?? [])].join(".");
  throw appError("invalid_fill", `${field}: ${issue?.message ?? "not a valid fill"}.`, { field });
}
