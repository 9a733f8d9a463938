import { tool, type ToolSet } from "ai";
import { appError, isAppError } from "../errors.ts";
import { getTool, type ToolContext, type ToolDocument } from "../tools/index.ts";
import type { Config } from "../config.ts";

/**
 * The AI SDK tools a cell may use: exactly its column's enabled tools. Every document a tool
 * returns is collected, because only those may be cited as the cell's sources. A failing tool
 * call is reported to the model (it may try another query) rather than failing the cell.
 */
export function buildCellTools(toolNames: readonly string[], config: Config, ctx: ToolContext, documents: ToolDocument[]): ToolSet {
  const tools: ToolSet = {};
  for (const name of toolNames) {
    const t = getTool(name);
    const check = t.isConfigured(config);
    if (!check.ok) throw appError("tool_not_configured", `The column uses ${name}, which is not configured: ${check.message}`);
    tools[name] = tool({
      description: t.description,
      inputSchema: t.inputSchema as never,
      execute: async (input: unknown) => {
        try {
          const result = await t.execute(input, ctx);
          documents.push(...result.documents);
          return result.output;
        } catch (e) {
          if (!isAppError(e)) throw e;
          return { error: { code: e.code, message: e.message } };
        }
      },
    });
  }
  return tools;
}
