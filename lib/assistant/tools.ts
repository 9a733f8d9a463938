import { jsonSchema, tool, type ToolSet } from "ai";
import { z } from "zod";
import { inTransaction } from "../db/work.ts";
import { getBaseStructure, updateBase, baseNameSchema } from "../domain/bases.ts";
import { appError, isAppError } from "../errors.ts";
import { manageColumn, manageColumnArgs } from "./column-tool.ts";
import type { ToolOutcome, ToolSession } from "./session.ts";

// The assistant's tools. A failed call is not an exception: it becomes a tool result
// { message, error: { code, message } } so the model reads what went wrong (an unknown type, a
// cycle, a second primary) and can correct itself within the same turn.

const renameBaseArgs = z.object({ name: z.string().describe("The new name of the base (1 to 200 characters).") });
const getStructureArgs = z.object({});

/**
 * The tools are described to the model with their JSON schema but not validated by the SDK: the
 * arguments are checked here, so a malformed call still yields a result in our error shape.
 */
function defineTool<S extends z.ZodType>(
  description: string,
  schema: S,
  run: (args: z.infer<S>) => Promise<ToolOutcome>,
) {
  return tool({
    description,
    inputSchema: jsonSchema<unknown>(modelSchema(schema)),
    execute: async (raw: unknown): Promise<ToolOutcome> => {
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
        return failure("The arguments are not valid.", "validation_failed", problems);
      }
      try {
        return await run(parsed.data);
      } catch (e) {
        if (isAppError(e)) return failure(e.message, e.code, e.message);
        console.error("[cellwright] assistant tool failed:", e);
        return failure(
          "The change could not be made because of a problem on our side.",
          "internal_error",
          "Something went wrong on our side.",
        );
      }
    },
  });
}

/** The JSON schema shown to the model, without keywords providers drop anyway (propertyNames of records). */
function modelSchema(schema: z.ZodType) {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => k !== "propertyNames" && k !== "$schema")
        .map(([k, v]) => [k, strip(v)]),
    );
  };
  return strip(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })) as Parameters<typeof jsonSchema>[0];
}

const failure = (message: string, code: string, detail: string): ToolOutcome => ({
  message: `Failed: ${message}`,
  error: { code, message: detail },
});

export function assistantTools(s: ToolSession): ToolSet {
  return {
    manageColumn: defineTool(
      "Create, update, delete or move one column of the base. Each call is applied immediately. " +
        "Address an existing column with columnId or columnName. The result holds the column as stored, or an error to fix.",
      manageColumnArgs,
      (args) => manageColumn(s, args),
    ),
    renameBase: defineTool("Rename the base.", renameBaseArgs, async ({ name }) => {
      const checked = baseNameSchema.safeParse(name);
      if (!checked.success) throw appError("validation_failed", checked.error.issues[0].message);
      const baseName = checked.data;
      const base = await inTransaction(s.rt, (w) => updateBase(w, s.workspaceId, s.baseId, { baseName }));
      s.changed = true;
      return { message: `Renamed the base to "${base.name}".`, base: { baseId: base.baseId, name: base.name } };
    }),
    getBaseStructure: defineTool(
      "Read the base's current sheet and columns (ids, names, types, inputs, tools, instructions). Changes nothing.",
      getStructureArgs,
      async () => {
        const structure = await getBaseStructure(s.rt.db.prisma, s.workspaceId, s.baseId);
        return { message: `The base has ${structure.sheetColumns.length} column(s).`, ...structure };
      },
    ),
  };
}
