import type { Runtime } from "../runtime.ts";

/** What the assistant's tools act on during one request, and what they did. */
export interface ToolSession {
  rt: Pick<Runtime, "db" | "bus" | "reactions" | "config">;
  workspaceId: string;
  baseId: string;
  /** The placeholder primary column of a base this request created, until something replaces or touches it. */
  placeholderId?: string;
  /** Whether any tool call committed a change. */
  changed: boolean;
  /** Columns an earlier turn asked the user about deleting: only these may be deleted with confirmed: true. */
  confirmable: ReadonlySet<string>;
}

/** What a tool call answers the model: a message, and an `error` when it failed. */
export type ToolOutcome = { message: string; [key: string]: unknown };
