import type { UiChunk } from "./ui-stream";

// The conversation as the panel shows it. Stored history (spec §2.6 messages) and the live
// stream both become the same items: text bubbles and one card per tool call.

export interface ChatMessage {
  role: "user" | "assistant" | "tool";
  content: string | ChatPart[];
}

export type ChatPart =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  | { type: "tool-result"; toolCallId: string; toolName: string; result: unknown };

export interface ToolOutcome {
  message?: string;
  column?: {
    id?: string;
    name?: string;
    type?: string;
    isAiEnabled?: boolean;
    isPrimary?: boolean;
    inputColumnIds?: string[];
    tools?: { name: string }[];
  };
  error?: { code: string; message: string };
}

export type ChatItem =
  | { kind: "user"; id: string; text: string }
  | { kind: "assistant"; id: string; text: string }
  | {
      kind: "tool";
      id: string;
      toolName: string;
      args: Record<string, unknown>;
      state: "pending" | "done" | "error";
      outcome?: ToolOutcome;
    }
  | { kind: "error"; id: string; code?: string; message: string };

const textOf = (content: ChatMessage["content"]) =>
  typeof content === "string" ? content : content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");

export function outcomeState(outcome: ToolOutcome | undefined): "done" | "error" {
  return outcome?.error ? "error" : "done";
}

export function itemsFromHistory(messages: ChatMessage[]): ChatItem[] {
  const items: ChatItem[] = [];
  messages.forEach((m, i) => {
    if (m.role === "user") items.push({ kind: "user", id: `h${i}`, text: textOf(m.content) });
    else if (m.role === "assistant") {
      if (typeof m.content === "string") {
        if (m.content) items.push({ kind: "assistant", id: `h${i}`, text: m.content });
        return;
      }
      m.content.forEach((p, j) => {
        if (p.type === "text" && p.text) items.push({ kind: "assistant", id: `h${i}.${j}`, text: p.text });
        if (p.type === "tool-call")
          items.push({ kind: "tool", id: p.toolCallId, toolName: p.toolName, args: p.args, state: "pending" });
      });
    } else if (Array.isArray(m.content)) {
      for (const p of m.content) {
        if (p.type !== "tool-result") continue;
        const outcome = p.result as ToolOutcome;
        const item = items.find((x) => x.kind === "tool" && x.id === p.toolCallId);
        if (item && item.kind === "tool") Object.assign(item, { outcome, state: outcomeState(outcome) });
      }
    }
  });
  return items;
}

/** What a stream chunk does to the items (a new array when something changed). */
export function applyChunk(items: ChatItem[], chunk: UiChunk): ChatItem[] {
  const str = (k: string) => (typeof chunk[k] === "string" ? (chunk[k] as string) : "");
  const updateTool = (id: string, patch: Partial<Extract<ChatItem, { kind: "tool" }>>) =>
    items.map((x) => (x.kind === "tool" && x.id === id ? { ...x, ...patch } : x));
  switch (chunk.type) {
    case "text-start":
      return [...items, { kind: "assistant", id: `s-${str("id")}-${items.length}`, text: "" }];
    case "text-delta": {
      const last = items[items.length - 1];
      if (last?.kind === "assistant") return [...items.slice(0, -1), { ...last, text: last.text + str("delta") }];
      return [...items, { kind: "assistant", id: `s-${str("id")}-${items.length}`, text: str("delta") }];
    }
    case "tool-input-start":
      if (items.some((x) => x.kind === "tool" && x.id === str("toolCallId"))) return items;
      return [...items, { kind: "tool", id: str("toolCallId"), toolName: str("toolName"), args: {}, state: "pending" }];
    case "tool-input-available": {
      const args = (chunk.input && typeof chunk.input === "object" ? chunk.input : {}) as Record<string, unknown>;
      if (!items.some((x) => x.kind === "tool" && x.id === str("toolCallId"))) {
        return [...items, { kind: "tool", id: str("toolCallId"), toolName: str("toolName"), args, state: "pending" }];
      }
      return updateTool(str("toolCallId"), { args });
    }
    case "tool-output-available": {
      const outcome = chunk.output as ToolOutcome;
      return updateTool(str("toolCallId"), { outcome, state: outcomeState(outcome) });
    }
    case "tool-output-error":
    case "tool-input-error":
      return updateTool(str("toolCallId"), {
        state: "error",
        outcome: { error: { code: "tool_failed", message: str("errorText") } },
      });
    case "error":
      return [
        ...items,
        { kind: "error", id: `e${items.length}`, message: str("errorText") || "The assistant failed." },
      ];
    case "data-error": {
      const error = (chunk.data as { error?: { code?: string; message?: string } } | undefined)?.error;
      return [
        ...items,
        {
          kind: "error",
          id: `e${items.length}`,
          code: error?.code,
          message: error?.message ?? "The assistant failed.",
        },
      ];
    }
    default:
      return items;
  }
}
