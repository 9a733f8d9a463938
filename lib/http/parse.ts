import type { z } from "zod";
import { appError, type ErrorCode } from "../errors.ts";
import { textProblem } from "../text.ts";
import { readJson, readOptionalJson } from "./body.ts";
import { notFoundCodeOf, type Endpoint } from "./endpoint.ts";

// Turns a request into an endpoint's typed params, query and body, answering mistakes the way
// each part always has: params 404 (the resource's own code), query 400 invalid_query, body 400
// validation_failed listing each issue (or a check's own code, such as too_many_rows).

type RawParams = Record<string, string | string[] | undefined>;

export function parseParams(endpoint: Endpoint, raw: RawParams): unknown {
  if (!endpoint.params) return {};
  const result = endpoint.params.safeParse(raw);
  if (result.success) return result.data;
  const name = result.error.issues[0]?.path[0];
  throw appError(notFoundCodeOf(typeof name === "string" ? endpoint.params.shape[name] : undefined));
}

export function parseQuery(endpoint: Endpoint, url: URL): unknown {
  if (!endpoint.query) return {};
  // A repeated parameter counts once, by its first value, as URLSearchParams.get reads it,
  // unless the parameter is a list (mergeOn of an import), which takes every value.
  const raw: Record<string, string | string[]> = {};
  for (const [key, schema] of Object.entries(endpoint.query.shape)) {
    if (isList(schema)) {
      const all = url.searchParams.getAll(key);
      if (all.length > 0) raw[key] = all;
      continue;
    }
    const v = url.searchParams.get(key);
    if (v !== null) raw[key] = v;
  }
  for (const [key, value] of Object.entries(raw)) {
    const problem = [value].flat().map(textProblem).find(Boolean);
    if (problem) throw appError("invalid_query", `${key} ${problem}.`, { issues: [{ path: key, message: problem }] });
  }
  const result = endpoint.query.safeParse(raw);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw appError("invalid_query", first.message, { issues: issuesOf(result.error) });
}

function isList(schema: unknown): boolean {
  const def = (schema as { def?: { type?: string; innerType?: unknown; in?: unknown } }).def;
  if (def?.type === "optional" || def?.type === "default") return isList(def.innerType);
  if (def?.type === "pipe") return isList(def.in);
  return def?.type === "array";
}

export async function readEndpointBody(endpoint: Endpoint, req: Request, defaultMaxBytes: number): Promise<unknown> {
  const schema = endpoint.parseBody ?? endpoint.body;
  if (!schema) return undefined;
  const maxBytes = endpoint.maxBodyBytes ?? defaultMaxBytes;
  switch (endpoint.bodyType ?? "json") {
    case "multipart":
    case "upload":
      return undefined;
    case "optional-json":
      return parseWith(schema, await readOptionalJson(req, maxBytes));
    case "json":
      return parseWith(schema, await readJson(req, maxBytes));
  }
}

/** Parses a value with a zod schema; failures become 400 validation_failed listing each issue. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // A check may name its own catalog code (limitedArray: too_many_rows).
  for (const i of result.error.issues) {
    if (i.code === "custom" && typeof i.params?.code === "string")
      throw appError(i.params.code as ErrorCode, i.message);
  }
  throw appError("validation_failed", "The request is not valid.", { issues: issuesOf(result.error) });
}

const issuesOf = (error: z.ZodError) => error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
