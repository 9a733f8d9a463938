// The Anthropic Messages wire format of the fake LLM: parse a request body into the neutral
// FakeLlmRequest fields, and render a FakeAnswer as a JSON body or as the SSE event sequence
// (message_start, content_block_start/delta/stop, message_delta, message_stop).
import type { ServerResponse } from "node:http";
import type { FakeAnswer, FakeMessage, FakeTool, FakeToolChoice, FakeResponseFormat } from "./fake-llm-types.ts";
import { parseArgs, pieces, sendJson, textOf } from "./fake-llm-openai.ts";

type Json = Record<string, any>;

export function parseAnthropic(body: Json) {
  const system = typeof body.system === "string" ? body.system : textOf(body.system);
  const messages: FakeMessage[] = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (typeof m.content === "string") {
      messages.push({ role: m.role === "assistant" ? "assistant" : "user", content: m.content });
      continue;
    }
    const blocks: Json[] = Array.isArray(m.content) ? m.content : [];
    // Tool results travel inside user messages; surface them as their own "tool" messages.
    for (const b of blocks.filter((b) => b.type === "tool_result")) {
      messages.push({ role: "tool", toolCallId: b.tool_use_id, content: textOf(b.content) });
    }
    const text = blocks
      .filter((b) => b.type === "text")
      .map((b) => String(b.text ?? ""))
      .join("");
    const toolUses = blocks.filter((b) => b.type === "tool_use");
    if (text || toolUses.length || !blocks.some((b) => b.type === "tool_result")) {
      const msg: FakeMessage = { role: m.role === "assistant" ? "assistant" : "user", content: text };
      if (toolUses.length) msg.toolCalls = toolUses.map((b) => ({ id: b.id, name: b.name, args: b.input }));
      messages.push(msg);
    }
  }
  const tools: FakeTool[] = (Array.isArray(body.tools) ? body.tools : [])
    .filter((t: Json) => t?.name && t.input_schema)
    .map((t: Json) => ({ name: t.name, description: t.description, parameters: t.input_schema }));
  let toolChoice: FakeToolChoice | undefined;
  const tc = body.tool_choice;
  if (tc?.type === "auto" || tc?.type === "none") toolChoice = tc.type;
  else if (tc?.type === "any") toolChoice = "required";
  else if (tc?.type === "tool" && tc.name) toolChoice = { name: tc.name };
  const format = body.output_config?.format ?? body.output_format;
  const responseFormat: FakeResponseFormat | undefined =
    format?.type === "json_schema" ? { type: "json_schema", schema: format.schema ?? {} } : undefined;
  return {
    model: String(body.model ?? ""),
    system,
    messages,
    tools,
    toolChoice,
    responseFormat,
    stream: body.stream === true,
    includeUsage: true,
    maxTokens: body.max_tokens,
  };
}

function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 429) return "rate_limit_error";
  if (status === 529) return "overloaded_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

export function renderAnthropicError(res: ServerResponse, a: Extract<FakeAnswer, { kind: "error" }>) {
  sendJson(res, a.status, { type: "error", error: { type: errorType(a.status), message: a.message } }, a.headers);
}

export async function renderAnthropic(
  res: ServerResponse,
  a: Extract<FakeAnswer, { kind: "message" }>,
  ctx: { id: string; model: string; stream: boolean; chunkDelayMs: number },
) {
  const stopReason =
    a.finishReason === "tool_calls" ? "tool_use" : a.finishReason === "length" ? "max_tokens" : "end_turn";
  const usage = { input_tokens: a.usage.inputTokens, output_tokens: a.usage.outputTokens };
  if (!ctx.stream) {
    const content: Json[] = [];
    if (a.text) content.push({ type: "text", text: a.text });
    // A JSON body cannot carry truncated tool input, so malformed arguments arrive as text instead.
    for (const c of a.toolCalls) {
      const input = parseArgs(c.argsText);
      if (typeof input === "string") content.push({ type: "text", text: c.argsText });
      else content.push({ type: "tool_use", id: c.id, name: c.name, input });
    }
    sendJson(res, 200, {
      id: ctx.id,
      type: "message",
      role: "assistant",
      model: ctx.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = async (event: string, data: Json) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    if (ctx.chunkDelayMs > 0) await new Promise((r) => setTimeout(r, ctx.chunkDelayMs));
  };
  const message = {
    id: ctx.id,
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
  };
  await send("message_start", { message });
  await send("ping", {});
  let index = 0;
  if (a.text) {
    await send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const p of pieces(a.text))
      await send("content_block_delta", { index, delta: { type: "text_delta", text: p } });
    await send("content_block_stop", { index });
    index++;
  }
  for (const c of a.toolCalls) {
    await send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: c.id, name: c.name, input: {} },
    });
    for (const p of pieces(c.argsText))
      await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: p } });
    await send("content_block_stop", { index });
    index++;
  }
  await send("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  await send("message_stop", {});
  res.end();
}
