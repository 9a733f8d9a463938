import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import * as bases from "../http/schemas/bases.ts";
import { callEndpoint, checkToolInput, fitResult, ToolError, type Invoke } from "./call.ts";
import { inputSchema, outputSchema } from "./schema.ts";
import { TOOLS, type McpTool } from "./tools.ts";
import { mayCall, toolRefusal, type ToolAccess } from "./access.ts";

// The MCP server: the tools of tools.ts, and each base's structure as a resource. It is built per
// request (stateless Streamable HTTP) around an `invoke` that calls the API as the caller, so
// every tool is scoped to the caller's workspace by the API itself.

export const SERVER_INFO = { name: "cellwright", version: "1.0.0" };
const STRUCTURE_URI = /^cellwright:\/\/bases\/([^/]+)\/structure$/;

const INSTRUCTIONS =
  "Cellwright is an AI enrichment table. A base has one sheet of typed columns; AI columns fill their cells " +
  "from instructions, input columns and tools (web search, scraping, files), with sources and a confidence score. " +
  "Start with list_bases and get_base_structure; read rows with query_rows (expand=true for AI cell details) or get_row " +
  "(cell for one cell in detail). Errors carry the API's stable codes.";

/** A tool as tools/list shows it; its schemas are built once. */
export function describeTool(t: McpTool) {
  const first = t.endpoints[0];
  return {
    name: t.name,
    title: t.title,
    description: t.description ?? [first.summary, first.description].filter(Boolean).join(": "),
    inputSchema: inputSchema(t.endpoints, t.extra, t.maxItems),
    outputSchema: outputSchema(t.output ?? first.response),
    annotations: { title: t.title, ...t.annotations },
  };
}

let described: ReturnType<typeof describeTool>[] | undefined;
const toolList = () => (described ??= TOOLS.map(describeTool));

/** The tools this caller may call, as tools/list shows them (every tool when access is not given). */
export const toolsFor = (access?: ToolAccess) =>
  toolList().filter((_, i) => access === undefined || mayCall(TOOLS[i], access));

export async function callTool(
  name: string,
  args: Record<string, unknown>,
  invoke: Invoke,
  access?: ToolAccess,
): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  try {
    const refusal = access && toolRefusal(tool, access);
    if (refusal) throw refusal;
    checkToolInput(args, tool.extra ?? {}, tool.maxItems ?? {});
    const result = await (tool.run ? tool.run(args, invoke) : callEndpoint(invoke, tool.endpoints[0], args));
    const { value, truncated } = fitResult(result);
    const note = truncated
      ? " (cut to fit: long values end with a note, long lists keep their first items; read one cell with get_row and cell for all of it)"
      : "";
    return {
      content: [{ type: "text", text: tool.summary(value, args) + note }],
      structuredContent: value as Record<string, unknown>,
    };
  } catch (e) {
    const err = e instanceof ToolError ? e : toolErrorOf(e);
    return { isError: true, content: [{ type: "text", text: JSON.stringify(err.toJSON()) }] };
  }
}

function toolErrorOf(e: unknown): ToolError {
  // Never a protocol crash, and never internals: the cause is logged.
  console.error("[cellwright] MCP tool failed:", e);
  return new ToolError("internal_error", "Something went wrong on our side.");
}

/** A server for one caller; `access` (their permissions and bases) decides which tools they see. */
export function createMcpServer(invoke: Invoke, access?: ToolAccess): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsFor(access) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) =>
    callTool(req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>, invoke, access),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const list = await callEndpoint(invoke, bases.listBases, {});
    return {
      resources: list.bases.map((b: { baseId: string; name: string }) => ({
        uri: `cellwright://bases/${b.baseId}/structure`,
        name: `${b.name} structure`,
        description: `The sheet and columns of the base ${b.name}.`,
        mimeType: "application/json",
      })),
    };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: "cellwright://bases/{baseId}/structure",
        name: "Base structure",
        description: "A base's sheet, columns and primary column.",
        mimeType: "application/json",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const baseId = STRUCTURE_URI.exec(req.params.uri)?.[1];
    if (!baseId) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${req.params.uri}`);
    try {
      const structure = await callEndpoint(invoke, bases.getBaseStructure, { baseId: decodeURIComponent(baseId) });
      return { contents: [{ uri: req.params.uri, mimeType: "application/json", text: JSON.stringify(structure) }] };
    } catch (e) {
      if (e instanceof ToolError) throw new McpError(ErrorCode.InvalidParams, `${e.code}: ${e.message}`, e.toJSON());
      throw e;
    }
  });
  return server;
}
