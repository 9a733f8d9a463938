// Turns a scripted FakeReply (or the default responder's) into a protocol-neutral FakeAnswer,
// applying the server's emulated capabilities the way real servers refuse unsupported requests.
import type { FakeAnswer, FakeLlmRequest, FakeReply } from "./fake-llm-types.ts";
import { defaultReply, targetTool } from "./fake-llm-default.ts";

export interface FakeCapabilities {
  /** response_format json_schema (Anthropic: output_config.format). Default true. */
  jsonSchema?: boolean;
  /** tool_choice "required" or a named tool. Default true. */
  forcedToolChoice?: boolean;
  /** Function tools at all. Default true. */
  tools?: boolean;
  /** Like OpenAI, reject a strict json_schema whose objects do not require every property. Default true. */
  strictSchemaValidation?: boolean;
}

/** The first property (as "path.key") that a strict schema leaves optional, if any. */
function optionalProperty(node: unknown, path = ""): string | undefined {
  if (!node || typeof node !== "object") return undefined;
  const n = node as Record<string, any>;
  if (n.properties && typeof n.properties === "object") {
    const required = new Set(Array.isArray(n.required) ? n.required : []);
    const missing = Object.keys(n.properties).find((k) => !required.has(k));
    if (missing) return path + missing;
    for (const [k, sub] of Object.entries(n.properties)) {
      const found = optionalProperty(sub, `${path}${k}.`);
      if (found) return found;
    }
  }
  const subs = [
    ...["items", "anyOf", "oneOf", "allOf"].flatMap((k) => (Array.isArray(n[k]) ? n[k] : n[k] ? [n[k]] : [])),
    ...["$defs", "definitions"].flatMap((k) => (n[k] && typeof n[k] === "object" ? Object.values(n[k]) : [])),
  ];
  for (const sub of subs) {
    const found = optionalProperty(sub, path);
    if (found) return found;
  }
  return undefined;
}

const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function requestText(req: FakeLlmRequest): string {
  return [req.system, ...req.messages.map((m) => m.content + (m.toolCalls ? JSON.stringify(m.toolCalls) : ""))].join(
    "\n",
  );
}

const reject = (message: string, param: string): FakeAnswer => ({
  kind: "error",
  status: 400,
  message,
  param,
  headers: {},
});

/** The refusal a server without this capability would send, or undefined. */
export function capabilityRefusal(req: FakeLlmRequest, caps: FakeCapabilities): FakeAnswer | undefined {
  if (caps.jsonSchema === false && req.responseFormat?.type === "json_schema") {
    return req.protocol === "anthropic"
      ? reject("output_config.format: structured outputs are not supported for this model.", "output_config")
      : reject(
          "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          "response_format",
        );
  }
  const rf = req.responseFormat;
  if (req.protocol === "openai" && caps.strictSchemaValidation !== false && rf?.type === "json_schema" && rf.strict) {
    const missing = optionalProperty(rf.schema);
    if (missing) {
      return reject(
        `Invalid schema for response_format '${rf.name ?? "response"}': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`,
        "response_format",
      );
    }
  }
  if (caps.tools === false && req.tools.length > 0) return reject("This model does not support tools.", "tools");
  if (caps.forcedToolChoice === false && (req.toolChoice === "required" || typeof req.toolChoice === "object")) {
    return reject("Invalid parameter: 'tool_choice' must be 'auto' or 'none' for this model.", "tool_choice");
  }
  return undefined;
}

/** Cuts a JSON text in the middle, so it no longer parses. */
export function truncate(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

const isEmpty = (r: FakeReply) =>
  r.text === undefined && r.json === undefined && !r.toolCalls && !r.status && !r.hang && !r.malformed;

export function resolveReply(
  req: FakeLlmRequest,
  scripted: FakeReply | undefined,
  ctx: { nextId: (prefix: string) => string; flaky: Map<string, number> },
): { answer: FakeAnswer; delayMs: number } {
  let reply: FakeReply = scripted ?? {};
  if (reply.rejectResponseFormat && req.responseFormat?.type === "json_schema") {
    return { answer: capabilityRefusal(req, { jsonSchema: false })!, delayMs: reply.delayMs ?? 0 };
  }
  // A reply that only sets timing or malformed falls through to the default content.
  if (isEmpty(reply) || (reply.malformed && reply.text === undefined && reply.json === undefined && !reply.toolCalls)) {
    const base = defaultReply(req, ctx.flaky);
    reply = { ...base, ...reply, delayMs: reply.delayMs ?? base.delayMs, malformed: reply.malformed || base.malformed };
  }
  const delayMs = reply.delayMs ?? 0;
  if (reply.hang) return { answer: { kind: "hang" }, delayMs };
  if (reply.status && reply.status >= 400) {
    const headers: Record<string, string> = {};
    if (reply.retryAfterSeconds !== undefined) headers["retry-after"] = String(reply.retryAfterSeconds);
    if (reply.retryAfter !== undefined) headers["retry-after"] = reply.retryAfter;
    const message =
      reply.message ??
      (reply.status === 429 ? "Rate limit reached for requests." : `The fake server answered ${reply.status}.`);
    return { answer: { kind: "error", status: reply.status, message, headers }, delayMs };
  }
  const inputTokens = reply.usage?.inputTokens ?? estimateTokens(requestText(req));
  let text: string | null = null;
  let toolCalls: { id: string; name: string; argsText: string }[] = [];
  if (reply.toolCalls) {
    toolCalls = reply.toolCalls.map((c) => ({
      id: c.id ?? ctx.nextId(req.protocol === "anthropic" ? "toolu" : "call"),
      name: c.name,
      argsText: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}),
    }));
    if (reply.malformed) toolCalls = toolCalls.map((c) => ({ ...c, argsText: truncate(c.argsText) }));
    if (reply.text !== undefined) text = reply.text;
  } else if (reply.json !== undefined) {
    let body = JSON.stringify(reply.json);
    if (reply.malformed) body = truncate(body);
    const tool = targetTool(req);
    if (tool)
      toolCalls = [
        { id: ctx.nextId(req.protocol === "anthropic" ? "toolu" : "call"), name: tool.name, argsText: body },
      ];
    else text = reply.fenced ? `\`\`\`json\n${body}\n\`\`\`` : body;
  } else {
    text = reply.text ?? "";
    if (reply.malformed) text = truncate(text || '{"value": "truncated');
    if (reply.fenced) text = `\`\`\`json\n${text}\n\`\`\``;
  }
  const outText = (text ?? "") + toolCalls.map((c) => c.argsText).join("");
  const usage = { inputTokens, outputTokens: reply.usage?.outputTokens ?? estimateTokens(outText) };
  const finishReason = toolCalls.length ? "tool_calls" : (reply.finishReason ?? "stop");
  return { answer: { kind: "message", text, toolCalls, finishReason, usage }, delayMs };
}
