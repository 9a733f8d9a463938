// The OpenAI Chat Completions wire format of the fake LLM: parse a request body into the neutral
// FakeLlmRequest fields, and render a FakeAnswer as a JSON body or as SSE chunks.
import type { ServerResponse } from "node:http";
import type { FakeAnswer, FakeMessage, FakeTool, FakeToolChoice, FakeResponseFormat } from "./fake-llm-types.ts";

type Json = Record<string, any>;

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p: any) => (typeof p === "string" ? p : p?.type === "text" ? String(p.text ?? "") : ""))
      .join("");
  }
  return content == null ? "" : JSON.stringify(content);
}

export function parseArgs(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function parseOpenAi(body: Json) {
  const system: string[] = [];
  const messages: FakeMessage[] = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (m.role === "system" || m.role === "developer") {
      system.push(textOf(m.content));
      continue;
    }
    const msg: FakeMessage = {
      role: m.role === "tool" ? "tool" : m.role === "assistant" ? "assistant" : "user",
      content: textOf(m.content),
    };
    if (Array.isArray(m.tool_calls)) {
      msg.toolCalls = m.tool_calls.map((c: Json) => ({
        id: c.id,
        name: c.function?.name,
        args: parseArgs(c.function?.arguments),
      }));
    }
    if (m.tool_call_id) msg.toolCallId = m.tool_call_id;
    messages.push(msg);
  }
  const tools: FakeTool[] = (Array.isArray(body.tools) ? body.tools : [])
    .filter((t: Json) => t?.type === "function")
    .map((t: Json) => ({
      name: t.function.name,
      description: t.function.description,
      parameters: t.function.parameters ?? {},
    }));
  let toolChoice: FakeToolChoice | undefined;
  const tc = body.tool_choice;
  if (tc === "auto" || tc === "none" || tc === "required") toolChoice = tc;
  else if (tc?.type === "function" && tc.function?.name) toolChoice = { name: tc.function.name };
  let responseFormat: FakeResponseFormat | undefined;
  const rf = body.response_format;
  if (rf?.type === "json_schema")
    responseFormat = {
      type: "json_schema",
      name: rf.json_schema?.name,
      schema: rf.json_schema?.schema ?? {},
      strict: rf.json_schema?.strict === true,
    };
  else if (rf?.type === "json_object") responseFormat = { type: "json_object" };
  else if (rf?.type === "text") responseFormat = { type: "text" };
  return {
    model: String(body.model ?? ""),
    system: system.join("\n\n"),
    messages,
    tools,
    toolChoice,
    responseFormat,
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    maxTokens: body.max_completion_tokens ?? body.max_tokens,
  };
}

function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 429) return "rate_limit_exceeded";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export function renderOpenAiError(res: ServerResponse, a: Extract<FakeAnswer, { kind: "error" }>) {
  sendJson(
    res,
    a.status,
    { error: { message: a.message, type: errorType(a.status), param: a.param ?? null, code: null } },
    a.headers,
  );
}

/** Splits text into a few pieces so streaming clients see several deltas. */
export function pieces(text: string, size = 24): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export async function renderOpenAi(
  res: ServerResponse,
  a: Extract<FakeAnswer, { kind: "message" }>,
  ctx: { id: string; model: string; stream: boolean; includeUsage: boolean; chunkDelayMs: number },
) {
  const created = Math.floor(Date.now() / 1000);
  const usage = {
    prompt_tokens: a.usage.inputTokens,
    completion_tokens: a.usage.outputTokens,
    total_tokens: a.usage.inputTokens + a.usage.outputTokens,
  };
  const toolCalls = a.toolCalls.map((c) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: c.argsText },
  }));
  if (!ctx.stream) {
    const message = {
      role: "assistant",
      content: a.text,
      refusal: null,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
    sendJson(res, 200, {
      id: ctx.id,
      object: "chat.completion",
      created,
      model: ctx.model,
      choices: [{ index: 0, message, finish_reason: a.finishReason, logprobs: null }],
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const base = { id: ctx.id, object: "chat.completion.chunk", created, model: ctx.model, system_fingerprint: null };
  const send = async (chunk: Json) => {
    res.write(`data: ${JSON.stringify({ ...base, ...chunk })}\n\n`);
    if (ctx.chunkDelayMs > 0) await new Promise((r) => setTimeout(r, ctx.chunkDelayMs));
  };
  // Real servers open with a role delta; content is "" for text answers and null for tool calls.
  await send({
    choices: [{ index: 0, delta: { role: "assistant", content: a.text == null ? null : "" }, finish_reason: null }],
  });
  if (a.text)
    for (const p of pieces(a.text)) await send({ choices: [{ index: 0, delta: { content: p }, finish_reason: null }] });
  for (const [i, c] of a.toolCalls.entries()) {
    const head = { index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } };
    await send({ choices: [{ index: 0, delta: { tool_calls: [head] }, finish_reason: null }] });
    for (const p of pieces(c.argsText)) {
      await send({
        choices: [{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: p } }] }, finish_reason: null }],
      });
    }
  }
  await send({ choices: [{ index: 0, delta: {}, finish_reason: a.finishReason }] });
  if (ctx.includeUsage) await send({ choices: [], usage });
  res.end("data: [DONE]\n\n");
}
