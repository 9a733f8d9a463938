import { APICallError } from "ai";
import { z } from "zod";
import { appError } from "../../errors.ts";
import type { ResolvedModel } from "./resolve-model.ts";

// How a structured answer is obtained from a model, and what to do when a server refuses the way
// we asked. Servers differ: OpenAI and recent vLLM accept response_format json_schema; many
// OpenAI-compatible servers (older vLLM, some proxies, llama.cpp builds) reject it with a 400 but
// can call tools; the rest can only write text. We try the modes in that order, remember per
// server and model which one worked, and repair sloppy JSON in every mode.

export type StructuredMode = "json_schema" | "tool" | "text";

/** The next mode after `mode` was refused, or undefined when the error is not a refusal of the mode. */
export function fallbackMode(mode: StructuredMode, e: unknown): StructuredMode | undefined {
  // "Invalid schema for response_format" means our schema is wrong (e.g. an optional property under
  // OpenAI's strict mode), not that the server lacks the feature: fail loudly instead of degrading.
  if (APICallError.isInstance(e) && /invalid schema/i.test(`${e.message}\n${e.responseBody ?? ""}`)) return undefined;
  if (
    mode === "json_schema" &&
    isRefusalOf(e, /response_format|json_schema|output_config|output_format|structured output/i)
  )
    return "tool";
  if (mode === "tool" && isRefusalOf(e, /tool_choice|function calling|tool use/i, /\btools?\b/i)) return "text";
  return undefined;
}

/** A 4xx/501 that names the feature: `pattern`, or `unsupported` together with "not supported". */
function isRefusalOf(e: unknown, pattern: RegExp, unsupported?: RegExp): boolean {
  if (!APICallError.isInstance(e)) return false;
  const status = e.statusCode ?? 0;
  if (![400, 404, 415, 422, 501].includes(status)) return false;
  const text = `${e.message}\n${e.responseBody ?? ""}`;
  return pattern.test(text) || (unsupported?.test(text) === true && /not supported/i.test(text));
}

// A probe that failed once for a server and model fails every time; remember the mode that works.
const learned = new Map<string, StructuredMode>();
const modeKey = (m: ResolvedModel) => `${m.baseUrl}|${m.spec}`;

export const learnedMode = (m: ResolvedModel): StructuredMode | undefined => learned.get(modeKey(m));
export const learnMode = (m: ResolvedModel, mode: StructuredMode) => void learned.set(modeKey(m), mode);
/** Forgets every learned mode (tests; or after the operator changed servers). */
export const forgetStructuredModes = () => learned.clear();

/** Strips code fences and finds the first JSON object or array in text; undefined when there is none. */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  const candidates = [fencedBlock(trimmed), trimmed].filter((c): c is string => typeof c === "string");
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate.trim());
    } catch {}
    const found = firstBalanced(candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first balanced {...} or [...] in text that parses as JSON. */
function firstBalanced(text: string): unknown {
  for (let start = 0; start < text.length; start++) {
    const open = text[start];
    if (open !== "{" && open !== "[") continue;
    const close = open === "{" ? "}" : "]";
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        try {
          return JSON.parse(text.slice(start, i + 1));
        } catch {
          break;
        }
      }
    }
  }
  return undefined;
}

const excerpt = (text: string) => (text.length > 500 ? `${text.slice(0, 500)}…` : text);

/** Validates a candidate answer against the schema; throws invalid_output (retryable) when it does not fit. */
export function validateAnswer<T>(value: unknown, schema: z.ZodType<T>, raw: string, mode: StructuredMode): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw appError("invalid_output", "The model's answer did not match the expected JSON shape.", {
    retryable: true,
    mode,
    issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
    output: excerpt(raw),
  });
}

/** Parses model text (JSON, fenced JSON, or JSON inside prose) into a schema-valid answer. */
export function parseAnswerText<T>(text: string, schema: z.ZodType<T>, mode: StructuredMode): T {
  const value = extractJson(text);
  if (value === undefined) {
    throw appError("invalid_output", "The model's answer was not valid JSON.", {
      retryable: true,
      mode,
      output: excerpt(text),
    });
  }
  return validateAnswer(value, schema, text, mode);
}

// The JSON schema the model must produce: the schema's input side, as the AI SDK sends it.
const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: "draft-7", io: "input", unrepresentable: "any" });

function everyPropertyRequired(node: unknown): boolean {
  if (!node || typeof node !== "object") return true;
  if (Array.isArray(node)) return node.every(everyPropertyRequired);
  const n = node as Record<string, unknown>;
  if (n.properties && typeof n.properties === "object") {
    const required = new Set(Array.isArray(n.required) ? n.required : []);
    if (!Object.keys(n.properties).every((k) => required.has(k))) return false;
  }
  return Object.values(n).every(everyPropertyRequired);
}

const strictness = new WeakMap<z.ZodType, boolean>();

/**
 * Whether OpenAI's strict json_schema mode accepts the schema: it insists that every property is
 * required (optional fields must be nullable instead) and rejects the schema with a 400 otherwise.
 * Schemas that do not qualify are sent non-strict and validated here.
 */
export function isStrictCompatible(schema: z.ZodType): boolean {
  let strict = strictness.get(schema);
  if (strict === undefined) {
    strict = everyPropertyRequired(toJson(schema));
    strictness.set(schema, strict);
  }
  return strict;
}

/** The instruction appended to the system prompt in text mode, with the schema spelled out. */
export function schemaInstructions(schema: z.ZodType): string {
  const json = JSON.stringify(toJson(schema));
  return [
    "Respond with only one JSON object that conforms to this JSON schema.",
    "No prose, no explanations and no code fences around it.",
    `JSON schema: ${json}`,
  ].join("\n");
}

/** The body of the first ``` fence (an optional json tag dropped), or undefined. */
function fencedBlock(text: string): string | undefined {
  const open = text.indexOf("```");
  if (open === -1) return undefined;
  const close = text.indexOf("```", open + 3);
  if (close === -1) return undefined;
  const body = text.slice(open + 3, close);
  return /^json/i.test(body) ? body.slice(4) : body;
}
