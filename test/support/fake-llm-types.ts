// Shared shapes of the fake LLM server: what a test sees of a request, what it may script as a
// reply, and the protocol-neutral answer the wire renderers turn into OpenAI or Anthropic bytes.
// Type-only module, so `node test/support/fake-llm.ts` can run it with plain type stripping.

export type FakeProtocol = "openai" | "anthropic";

export interface FakeToolCall {
  id: string;
  name: string;
  /** Parsed arguments; the raw text when they were not valid JSON. */
  args: unknown;
}

/** One message, normalised across protocols. Tool results become `role: "tool"` messages. */
export interface FakeMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  toolCalls?: FakeToolCall[];
  toolCallId?: string;
}

export interface FakeTool {
  name: string;
  description?: string;
  /** The tool's JSON schema (OpenAI `parameters`, Anthropic `input_schema`). */
  parameters: Record<string, unknown>;
}

/** "required" is OpenAI's "required" and Anthropic's "any"; `{ name }` forces one tool. */
export type FakeToolChoice = "auto" | "none" | "required" | { name: string };

export type FakeResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; name?: string; schema: Record<string, unknown>; strict?: boolean };

export interface FakeLlmRequest {
  /** 0-based arrival order on this server. */
  index: number;
  /** Date.now() when the request arrived, and when its response ended (undefined while in flight). */
  at: number;
  doneAt?: number;
  protocol: FakeProtocol;
  path: string;
  model: string;
  /** System (and OpenAI "developer") instructions, joined. */
  system: string;
  messages: FakeMessage[];
  /** Text of the last user message, the usual place for a cell's input data. */
  lastUserText: string;
  tools: FakeTool[];
  toolChoice?: FakeToolChoice;
  /** OpenAI `response_format`; Anthropic `output_config.format` shows up as json_schema too. */
  responseFormat?: FakeResponseFormat;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`. */
  includeUsage: boolean;
  maxTokens?: number;
  headers: Record<string, string | undefined>;
  body: Record<string, unknown>;
  /** HTTP status the fake answered with (undefined while in flight or for a hang). */
  status?: number;
}

/**
 * What a handler or `enqueue` scripts. Fields combine: e.g. `{ json, delayMs: 50 }`, or
 * `{ rejectResponseFormat: true, json }` (400 when the request asks for json_schema, else the JSON).
 * An empty reply, or a handler returning undefined, falls through to the default responder.
 */
export interface FakeReply {
  text?: string;
  /** Sent as the message content (respecting response_format), or as the arguments of a forced tool call. */
  json?: unknown;
  /** Wrap `json`/`text` content in a ```json fence, like chatty models do. */
  fenced?: boolean;
  toolCalls?: { name: string; args: unknown; id?: string }[];
  status?: number;
  /** Sets `Retry-After: <seconds>` on an error status. */
  retryAfterSeconds?: number;
  /** Sets `Retry-After` verbatim (e.g. an HTTP date). */
  retryAfter?: string;
  /** Error message for an error status. */
  message?: string;
  hang?: boolean;
  /** Truncated, invalid JSON as content (or tool arguments). */
  malformed?: boolean;
  rejectResponseFormat?: boolean;
  delayMs?: number;
  usage?: { inputTokens?: number; outputTokens?: number };
  finishReason?: "stop" | "length";
}

export type FakeHandler = (req: FakeLlmRequest) => FakeReply | undefined | Promise<FakeReply | undefined>;

export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A protocol-neutral answer; the OpenAI and Anthropic modules render it. */
export type FakeAnswer =
  | {
      kind: "message";
      text: string | null;
      toolCalls: { id: string; name: string; argsText: string }[];
      finishReason: "stop" | "tool_calls" | "length";
      usage: FakeUsage;
    }
  | { kind: "error"; status: number; message: string; param?: string; headers: Record<string, string> }
  | { kind: "hang" };
