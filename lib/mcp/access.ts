import { requiredScopes } from "../auth/authorize.ts";
import { scopeToName } from "../auth/permissions.ts";
import type { Principal } from "../auth/principal.ts";
import { ToolError } from "./call.ts";
import type { McpTool } from "./tools.ts";

// Which tools a caller may call: a tool needs every scope of every endpoint it calls (the REST
// rules, from the same endpoint declarations), and a tool that reaches every base is not for a key
// limited to some. tools/list shows only these; calling another is a tool error naming the scope,
// before any endpoint is called, so a tool of several steps never stops half way.

export type ToolAccess = Pick<Principal, "permissions" | "baseIds" | "role">;

/** Why the caller may not call this tool, or null when they may. */
export function toolRefusal(tool: McpTool, access: ToolAccess): ToolError | null {
  for (const endpoint of tool.endpoints) {
    for (const scope of requiredScopes(endpoint)) {
      if (access.permissions.has(scope)) continue;
      const name = scopeToName(scope);
      return new ToolError(
        "insufficient_scope",
        `The ${tool.name} tool needs the ${name} scope (role ${access.role}).`,
        {
          scope: name,
        },
      );
    }
    if (endpoint.allBases && access.baseIds !== null)
      return new ToolError(
        "base_not_in_scope",
        `The ${tool.name} tool reaches every base; this key is limited to some bases.`,
        { baseIds: access.baseIds },
      );
  }
  return null;
}

export const mayCall = (tool: McpTool, access: ToolAccess) => toolRefusal(tool, access) === null;
