import type { z } from "zod";
import type { Endpoint } from "../http/endpoint.ts";
import type { Invoke } from "./call.ts";

// The shape of an MCP tool entry (tools.ts, people-tools.ts).

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface McpTool {
  name: string;
  title: string;
  description?: string;
  endpoints: readonly Endpoint[];
  annotations: ToolAnnotations;
  /** Fields only the tool has, or tighter than the endpoint's (validated before the call). */
  extra?: Record<string, z.ZodType>;
  /** At most this many items per call in an array field (a tool answer stays small). */
  maxItems?: Record<string, number>;
  /** The structured result's schema, when it is not the first endpoint's response. */
  output?: z.ZodType;
  run?: (args: Record<string, any>, invoke: Invoke) => Promise<unknown>;
  summary: (result: any, args: Record<string, any>) => string;
}
