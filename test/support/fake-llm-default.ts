// The fake LLM's default responder, used when no test scripted a reply (benches, e2e).
//
// Answers are deterministic functions of the prompt, so a test can check what the model "saw":
// - The input summary is taken from the last user message: its fenced row data
//   (<<<UNTRUSTED_DATA … source="Company">>> Acme … → "Company=Acme; ..."), else the leaves of the
//   first JSON object in it ("key=value; ..."), else its "Label: value" lines, else the whole text.
// - A text answer, and the `value` of a structured answer, is `AI(<summary>)`. A column whose
//   prompt contains another column's value therefore answers e.g. `AI(Summary=AI(Company=Acme))`.
// - The column-type hints from lib/domain/column-types (aiValueHint) are recognised in the value's
//   schema description or the prompt, so number/checkbox/date/email/url/select columns get valid
//   values ("A number only" → "<digits>", "Exactly one of these options: ..." → one option, ...).
// - Structured requests (response_format json_schema/json_object, a forced tool call, or a prompt
//   that asks for JSON) get `{ value, sources: [], confidenceScore: 0.9, additionalDetails }`,
//   shaped by the JSON schema when one is available.
// - Directives in the prompt script a process started elsewhere: [[fake:status=500]],
//   [[fake:retry-after=2]], [[fake:malformed]], [[fake:delay=300]], [[fake:hang]], and
//   [[fake:flaky=2]] (the first 2 requests with this exact prompt get a 503).
import type { FakeLlmRequest, FakeReply } from "./fake-llm-types.ts";

type Schema = Record<string, any>;

const DIRECTIVE = /\[\[fake:([a-z-]+)(?:=([^\]]*))?\]\]/g;

/** FNV-1a, so answers are stable across runs and processes. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function directivesOf(req: FakeLlmRequest): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of `${req.system}\n${req.lastUserText}`.matchAll(DIRECTIVE)) found.set(m[1], m[2] ?? "");
  return found;
}

/** Finds and parses the first balanced {...} in text that is valid JSON. */
export function firstJsonObject(text: string): Record<string, unknown> | undefined {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        try {
          const v = JSON.parse(text.slice(start, i + 1));
          if (v && typeof v === "object" && !Array.isArray(v)) return v;
        } catch {}
        break;
      }
    }
  }
  return undefined;
}

function leaves(value: unknown, prefix: string, out: string[]) {
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (value !== null && value !== undefined && value !== "") out.push(`${prefix}=${String(value)}`);
}

// Row data fenced by lib/tools/fence.ts: <<<UNTRUSTED_DATA nonce source="Label">>> ... <<<END_UNTRUSTED_DATA nonce>>>
const FENCE = /<<<UNTRUSTED_DATA (\w+) source="([^"]*)">>>\n([\s\S]*?)\n<<<END_UNTRUSTED_DATA \1>>>/g;

export function inputSummary(text: string): string {
  const clean = text.replace(DIRECTIVE, "").trim();
  const fenced = [...clean.matchAll(FENCE)].map((m) => {
    // Drop the fence's bracketed notice line; keep the data, on one line.
    const body = m[3]
      .replace(/^\[[^\n]*\]\n?/, "")
      .replace(/\s+/g, " ")
      .trim();
    return `${m[2]}=${body}`;
  });
  if (fenced.length) return fenced.join("; ");
  const obj = firstJsonObject(clean);
  if (obj) {
    const out: string[] = [];
    leaves(obj, "", out);
    if (out.length) return out.join("; ");
  }
  const labelled = [...clean.matchAll(/^[ \t-]*([A-Za-z][\w .\-/()]{0,40}?)[ \t]*:[ \t]+(\S.*)$/gm)].map(
    (m) => `${m[1].trim()}=${m[2].trim()}`,
  );
  if (labelled.length) return labelled.join("; ");
  const collapsed = clean.replace(/\s+/g, " ");
  return collapsed.length > 200 ? `${collapsed.slice(0, 200)}…` : collapsed;
}

const pad = (n: number) => String(n).padStart(2, "0");

function hintOf(text: string, h: number): string | undefined {
  const options = /Exactly one of these options:\s*(.+)$/m.exec(text);
  if (options) {
    const list = [...options[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
    if (list.length) return list[h % list.length];
  }
  if (/"true" or "false"/.test(text)) return h % 2 === 0 ? "true" : "false";
  if (/A number only/i.test(text)) return String(h % 1000);
  if (/YYYY-MM-DD/.test(text)) return `2024-${pad(1 + (h % 12))}-${pad(1 + (h % 28))}`;
  if (/email address/i.test(text)) return `ai.${h % 10000}@example.com`;
  if (/URL of a file/i.test(text)) return `https://files.example.com/ai-${h % 10000}.pdf`;
  if (/absolute http\(s\) URL/i.test(text)) return `https://example.com/ai/${h % 10000}`;
  return undefined;
}

/**
 * The answer value for the first column-type hint found in `texts` (most specific first, so a
 * hint-like phrase inside row data does not override the system prompt's), or `AI(<summary>)`.
 */
export function hintedValue(texts: string | string[], summary: string): string {
  const h = hash(summary);
  for (const text of Array.isArray(texts) ? texts : [texts]) {
    const hinted = hintOf(text, h);
    if (hinted !== undefined) return hinted;
  }
  return `AI(${summary})`;
}

function clamp(n: number, s: Schema): number {
  let v = n;
  if (typeof s.minimum === "number") v = Math.max(v, s.minimum);
  if (typeof s.maximum === "number") v = Math.min(v, s.maximum);
  return s.type === "integer" ? Math.round(v) : v;
}

interface SampleCtx {
  h: number;
  value: string;
  model: string;
  hintTexts: string[];
  summary: string;
}

/** A deterministic instance of a JSON schema, with the answer envelope's fields filled meaningfully. */
export function sample(schema: Schema | undefined, name: string, ctx: SampleCtx, depth = 0): unknown {
  if (!schema || typeof schema !== "object" || depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[ctx.h % schema.enum.length];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length) {
    return sample(alternatives.find((a: Schema) => a?.type !== "null") ?? alternatives[0], name, ctx, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) return sample(schema.allOf[0], name, ctx, depth + 1);
  let type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  type ??= schema.properties ? "object" : schema.items ? "array" : "string";
  if (type === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, sub] of Object.entries<Schema>(schema.properties ?? {})) out[k] = sample(sub, k, ctx, depth + 1);
    return out;
  }
  if (type === "array") {
    const n = Math.max(schema.minItems ?? (name === "sources" ? 0 : 1), 0);
    return Array.from({ length: n }, () => sample(schema.items, name, ctx, depth + 1));
  }
  if (type === "number" || type === "integer") {
    if (/confidence/i.test(name))
      return clamp(typeof schema.maximum === "number" && schema.maximum > 1 ? 90 : 0.9, schema);
    const fromValue = Number(ctx.value);
    return clamp(Number.isFinite(fromValue) && ctx.value !== "" ? fromValue : ctx.h % 100, schema);
  }
  if (type === "boolean")
    return name === "value" && /^(true|false)$/.test(ctx.value) ? ctx.value === "true" : ctx.h % 2 === 0;
  if (type === "null") return null;
  if (name === "value")
    return schema.description ? hintedValue([schema.description, ...ctx.hintTexts], ctx.summary) : ctx.value;
  if (/details/i.test(name)) return `Answered by the fake LLM (${ctx.model}).`;
  if (schema.format === "uri" || schema.format === "url" || name === "url")
    return `https://example.com/source/${ctx.h % 10000}`;
  if (schema.format === "email") return `ai.${ctx.h % 10000}@example.com`;
  return ctx.value;
}

/** A JSON schema embedded in the prompt (text-mode structured output), if any. */
function schemaInPrompt(req: FakeLlmRequest): Schema | undefined {
  for (const text of [req.system, req.lastUserText]) {
    const obj = firstJsonObject(text.slice(Math.max(text.search(/schema/i), 0)));
    if (obj && (obj.properties || obj.type === "object")) return obj;
  }
  return undefined;
}

export function answerObject(req: FakeLlmRequest, schema: Schema | undefined): unknown {
  const summary = inputSummary(req.lastUserText);
  const hintTexts = [req.system, req.lastUserText];
  const value = hintedValue([schema?.properties?.value?.description ?? "", ...hintTexts], summary);
  const ctx = { h: hash(summary), value, model: req.model, hintTexts, summary };
  if (schema && (schema.properties || schema.anyOf || schema.type)) return sample(schema, "", ctx);
  return { value, sources: [], confidenceScore: 0.9, additionalDetails: `Answered by the fake LLM (${req.model}).` };
}

/** The tool a forced or "required" choice points at: a named one, else an answer-shaped one, else the first. */
export function targetTool(req: FakeLlmRequest) {
  const choice = req.toolChoice;
  if (choice && typeof choice === "object") return req.tools.find((t) => t.name === choice.name);
  if (choice !== "required") return undefined;
  return req.tools.find((t) => (t.parameters as Schema)?.properties?.value) ?? req.tools[0];
}

export function defaultReply(req: FakeLlmRequest, flaky: Map<string, number>): FakeReply {
  const d = directivesOf(req);
  const reply: FakeReply = {};
  if (d.has("delay")) reply.delayMs = Number(d.get("delay")) || 0;
  if (d.has("hang")) return { hang: true };
  if (d.has("status")) {
    const retryAfter = d.get("retry-after");
    return {
      ...reply,
      status: Number(d.get("status")),
      ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}),
    };
  }
  if (d.has("flaky")) {
    const key = String(hash(`${req.system}\n${req.lastUserText}`));
    const seen = flaky.get(key) ?? 0;
    flaky.set(key, seen + 1);
    if (seen < Number(d.get("flaky"))) return { ...reply, status: 503 };
  }
  if (d.has("malformed")) reply.malformed = true;
  const tool = targetTool(req);
  const rf = req.responseFormat;
  if (tool) return { ...reply, json: answerObject(req, tool.parameters as Schema) };
  if (rf?.type === "json_schema") return { ...reply, json: answerObject(req, rf.schema) };
  if (rf?.type === "json_object" || /\bJSON\b/.test(`${req.system}\n${req.lastUserText}`)) {
    return { ...reply, json: answerObject(req, schemaInPrompt(req)) };
  }
  return { ...reply, text: hintedValue([req.system, req.lastUserText], inputSummary(req.lastUserText)) };
}
