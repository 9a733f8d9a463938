import type { Runtime } from "../runtime.ts";

/** What the assistant's tools act on during one request, and what they did. */
export interface ToolSession {
  rt: Pick<Runtime, "db" | "bus">;
  workspaceId: string;
  baseId: string;
  /** The placeholder primary column of a base this request created, until something replaces or touches it. */
  placeholderId?: string;
  /** Whether any tool call committed a change. */
  changed: boolean;
}
