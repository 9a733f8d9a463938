import { tool, type ToolSet } from "ai";
import { appError, isAppError } from "../errors.ts";
import { getTool, type ImageOutput, type ToolContext, type ToolDocument } from "../tools/index.ts";
import type { Config } from "../config.ts";
import { storableJson } from "../text.ts";

/**
 * The AI SDK tools a cell may use: exactly its column's enabled tools. Every document a tool
 * returns is collected, because only those may be cited as the cell's sources. A failing tool
 * call is reported to the model (it may try another query) rather than failing the cell.
 */
export function buildCellTools(
  toolNames: readonly string[],
  config: Config,
  ctx: ToolContext,
  documents: ToolDocument[],
): ToolSet {
  const tools: ToolSet = {};
  for (const name of toolNames) {
    const t = getTool(name);
    const check = t.isConfigured(config);
    if (!check.ok)
      throw appError("tool_not_configured", `The column uses ${name}, which is not configured: ${check.message}`);
    tools[name] = tool({
      description: t.description,
      inputSchema: t.inputSchema as never,
      execute: async (input: unknown) => {
        try {
          const result = await t.execute(input, ctx);
          // Chat Completions cannot carry images in a tool result, and base64 sent as text would
          // only burn tokens: the model is told plainly instead, and the image is not a source.
          if (isImageOutput(result.output)) {
            return {
              error: {
                code: "unsupported_file",
                message: `${result.output.name} is an image; images cannot be read by this model through a tool.`,
              },
            };
          }
          // Whatever a page or file held, a NUL or a broken surrogate never reaches the prompt,
          // the stored excerpts, or another cell's write.
          documents.push(...storableJson(result.documents));
          return storableJson(result.output);
        } catch (e) {
          if (!isAppError(e)) throw e;
          return { error: { code: e.code, message: e.message } };
        }
      },
    });
  }
  return tools;
}

const isImageOutput = (o: unknown): o is ImageOutput =>
  typeof o === "object" && o !== null && (o as { kind?: unknown }).kind === "image";
