import { appError } from "../errors.ts";
import { emailEnrichmentTool } from "./email-enrichment.ts";
import { fileAnalysisTool } from "./file-analysis.ts";
import { scrapeUrlTool } from "./scrape-url.ts";
import type { CellTool, ToolName } from "./types.ts";
import { webSearchTool } from "./web-search.ts";

// The one map of tools: a tool for every name of TOOL_NAMES (the column model), checked below.

export const CELL_TOOLS = {
  "web-search": webSearchTool,
  "scrape-url": scrapeUrlTool,
  "file-analysis": fileAnalysisTool,
  "email-enrichment": emailEnrichmentTool,
} satisfies { [K in ToolName]: CellTool<any> & { name: K } };

export const isToolName = (name: string): name is ToolName => Object.hasOwn(CELL_TOOLS, name);

export function getTool(name: string): CellTool<unknown> {
  if (!isToolName(name)) throw appError("unknown_tool", `Unknown tool: ${name}.`);
  return CELL_TOOLS[name] as CellTool<unknown>;
}
