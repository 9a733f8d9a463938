import type { ModelMessage } from "ai";
import { z } from "zod";
import { appError } from "../errors.ts";

// The chat messages of spec §2.6 and §4.6, their validation, and their conversion to and from
// the AI SDK's ModelMessages. Callers keep the history and send it back, so what comes in must be
// checked as carefully as any other input: a tool-result without its tool-call, or a tool-call
// left unanswered, would make every provider reject the whole request.

const id = z.string().min(1).max(200).describe("The tool call's id; a tool-result repeats it.");
const toolName = z.string().min(1).max(100).describe("The tool, e.g. manageColumn.");
const textPart = z
  .object({ type: z.literal("text").describe("A text part."), text: z.string().max(100_000).describe("The text.") })
  .describe("Text.");
const toolCallPart = z
  .object({
    type: z.literal("tool-call").describe("A tool call of the assistant."),
    toolCallId: id,
    toolName,
    args: z.record(z.string(), z.unknown()).describe('The call\'s arguments, e.g. { columnOperation: "create", … }.'),
  })
  .describe("A tool call.");
const toolResultPart = z
  .object({
    type: z.literal("tool-result").describe("The result of a tool call."),
    toolCallId: id,
    toolName,
    result: z.unknown().describe("The result: message, and column when one was created or changed, or error."),
  })
  .describe("A tool result.");

const userMessage = z.object({
  role: z.literal("user").describe("A message of the user."),
  content: z.union([z.string().min(1).max(100_000), z.array(textPart).min(1)]).describe("The text, or text parts."),
});
const assistantMessage = z.object({
  role: z.literal("assistant").describe("A message of the assistant."),
  content: z
    .union([z.string().max(100_000), z.array(z.discriminatedUnion("type", [textPart, toolCallPart]))])
    .describe("The text, or text and tool-call parts."),
});
const toolMessage = z.object({
  role: z.literal("tool").describe("The results of the assistant's tool calls."),
  content: z
    .union(
      [z.string().min(1).max(100_000), z.array(toolResultPart).min(1)],
      "A tool message's content is text or an array of tool-result parts.",
    )
    .describe("Tool-result parts, or text (spec §4.6): text answers every tool call still open."),
});

export const chatMessageSchema = z
  .discriminatedUnion("role", [userMessage, assistantMessage, toolMessage], {
    error: "role must be one of user, assistant, tool.",
  })
  .describe("A chat message (spec §2.6).");

export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type TextPart = z.infer<typeof textPart>;
export type ToolCallPart = z.infer<typeof toolCallPart>;
export type ToolResultPart = z.infer<typeof toolResultPart>;

export const MAX_MESSAGES = 500;
/** Chat histories are text; this bounds what one request can make us parse. */
export const MAX_CONFIGURE_BODY_BYTES = 5 * 1024 * 1024;

const invalid = (message: string, details?: unknown) => appError("invalid_messages", message, details);

/**
 * Parses and checks a request's messages: shapes, and the pairing rules of §4.6 (each
 * tool-result follows its tool-call with the same id; every tool-call is answered before the
 * conversation moves on). The last message must be the user's: it is what the assistant answers.
 */
export function parseMessages(value: unknown): ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid("messages must be a non-empty array.");
  if (value.length > MAX_MESSAGES) throw invalid(`At most ${MAX_MESSAGES} messages per request.`);
  const parsed = z.array(chatMessageSchema).safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: ["messages", ...i.path].join("."), message: i.message }));
    throw invalid(`The messages are not valid: ${issues[0].path}: ${issues[0].message}`, { issues });
  }
  checkPairing(parsed.data);
  if (parsed.data.at(-1)!.role !== "user")
    throw invalid("The last message must have role user: it is what the assistant answers.");
  return parsed.data;
}

function checkPairing(messages: ChatMessage[]) {
  // Calls of the latest assistant message that still wait for their result.
  let open = new Map<string, string>();
  const seen = new Set<string>();
  const unanswered = (index: number) =>
    invalid(
      `messages.${index}: tool-call ${[...open.keys()].map((k) => `"${k}"`).join(", ")} has no tool-result before the next message.`,
      {
        index,
        toolCallIds: [...open.keys()],
      },
    );
  messages.forEach((m, index) => {
    if (m.role === "tool") {
      // Text answers whatever is open (spec §4.6 allows a tool message's content to be a string).
      if (typeof m.content === "string") return void (open = new Map());
      for (const part of m.content) {
        const name = open.get(part.toolCallId);
        if (name === undefined) {
          throw invalid(
            `messages.${index}: tool-result "${part.toolCallId}" does not follow a tool-call with that id.`,
            { index },
          );
        }
        if (name !== part.toolName) {
          throw invalid(
            `messages.${index}: tool-result "${part.toolCallId}" names tool "${part.toolName}", its call named "${name}".`,
            { index },
          );
        }
        open.delete(part.toolCallId);
      }
      return;
    }
    if (open.size > 0) throw unanswered(index);
    if (m.role === "assistant" && Array.isArray(m.content)) {
      open = new Map();
      for (const part of m.content) {
        if (part.type !== "tool-call") continue;
        if (seen.has(part.toolCallId))
          throw invalid(`messages.${index}: tool-call id "${part.toolCallId}" is used twice.`, { index });
        seen.add(part.toolCallId);
        open.set(part.toolCallId, part.toolName);
      }
    }
  });
  if (open.size > 0) throw unanswered(messages.length);
}

/** Spec messages → the AI SDK's ModelMessages (args ↔ input, result ↔ output). */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  // The calls of the latest assistant message: what a text tool message answers.
  let calls: ToolCallPart[] = [];
  return messages.map((m): ModelMessage => {
    if (m.role === "user")
      return {
        role: "user",
        content: typeof m.content === "string" ? m.content : m.content.map((p) => p.text).join("\n"),
      };
    if (m.role === "tool") {
      const answered = calls;
      calls = [];
      if (typeof m.content === "string") {
        const text = m.content;
        if (answered.length === 0) return { role: "user", content: `Tool output:\n${text}` };
        return {
          role: "tool",
          content: answered.map((c) => ({
            type: "tool-result" as const,
            toolCallId: c.toolCallId,
            toolName: c.toolName,
            output: { type: "text" as const, value: text },
          })),
        };
      }
      return {
        role: "tool",
        content: m.content.map((p) => ({
          type: "tool-result" as const,
          toolCallId: p.toolCallId,
          toolName: p.toolName,
          output: { type: "json" as const, value: (p.result ?? null) as never },
        })),
      };
    }
    if (typeof m.content === "string") return { role: "assistant", content: m.content };
    calls = m.content.filter((p): p is ToolCallPart => p.type === "tool-call");
    return {
      role: "assistant",
      content: m.content.map((p) =>
        p.type === "text"
          ? p
          : { type: "tool-call" as const, toolCallId: p.toolCallId, toolName: p.toolName, input: p.args },
      ),
    };
  });
}

type ResponsePart = { type: string; [key: string]: unknown };
type ResponseMessage = { role: string; content: unknown };

/**
 * The AI SDK's response messages of a turn → spec messages. An assistant message that is only
 * text becomes a string; reasoning and other provider extras are dropped, and a message left
 * empty is left out.
 */
export function fromResponseMessages(messages: readonly ResponseMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const parts: ResponsePart[] =
      typeof m.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === "assistant") {
      const content = parts.flatMap((p): (TextPart | ToolCallPart)[] => {
        if (p.type === "text" && typeof p.text === "string" && p.text !== "") return [{ type: "text", text: p.text }];
        if (p.type === "tool-call")
          return [
            {
              type: "tool-call",
              toolCallId: String(p.toolCallId),
              toolName: String(p.toolName),
              args: asArgs(p.input),
            },
          ];
        return [];
      });
      if (content.length === 0) continue;
      out.push({
        role: "assistant",
        content: content.every((p) => p.type === "text")
          ? content.map((p) => (p as TextPart).text).join("\n")
          : content,
      });
    } else if (m.role === "tool") {
      const content = parts
        .filter((p) => p.type === "tool-result")
        .map(
          (p): ToolResultPart => ({
            type: "tool-result",
            toolCallId: String(p.toolCallId),
            toolName: String(p.toolName),
            result: resultOf(p.output),
          }),
        );
      if (content.length > 0) out.push({ role: "tool", content });
    }
  }
  return out;
}

function asArgs(input: unknown): Record<string, unknown> {
  if (input && typeof input === "object" && !Array.isArray(input)) return input as Record<string, unknown>;
  // Arguments the model sent that were not a JSON object (unparsable text, say) are kept visible.
  return { raw: input ?? null };
}

/** A tool output as the spec's `result` object; errors the SDK caught keep the {message, error} shape of ours. */
function resultOf(output: unknown): unknown {
  const o = (output ?? {}) as { type?: string; value?: unknown; reason?: string };
  if (o.type === "json" || o.type === "content") return o.value ?? null;
  const text =
    o.type === "execution-denied"
      ? (o.reason ?? "The tool call was denied.")
      : typeof o.value === "string"
        ? o.value
        : JSON.stringify(o.value ?? null);
  if (o.type === "text") return { message: text };
  // The model called a tool that does not exist or sent arguments that could not be parsed.
  return { message: `The tool call failed: ${text}`, error: { code: "validation_failed", message: text } };
}
