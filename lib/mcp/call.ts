import type { z } from "zod";
import type { Endpoint } from "../http/endpoint.ts";
import { placesOf } from "./schema.ts";

// Calling an endpoint for a tool: the flat arguments are split into path, query and body, and the
// request goes through the API's own handler (or, from the stdio bridge, over HTTP), so a tool
// call is validated, scoped, charged and answered exactly as the same REST call would be.

export interface ApiRequest {
  endpoint: Endpoint;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Sends one request to the API, authenticated as the MCP caller. */
export type Invoke = (req: ApiRequest) => Promise<ApiAnswer>;

/** An error of the API's catalog, carried to the agent as a tool error. */
export class ToolError extends Error {
  readonly code: string;
  readonly details?: unknown;
  constructor(code: string, message: string, details?: unknown) {
    super(message);
    this.code = code;
    this.details = details;
  }
  toJSON() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

const text = (v: unknown) =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);

export function requestOf(
  endpoint: Endpoint,
  args: Record<string, unknown>,
  toolOnly: ReadonlySet<string> = new Set(),
): ApiRequest {
  const places = placesOf(endpoint);
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || toolOnly.has(k)) continue;
    if (places.params.has(k)) params[k] = text(v);
    else if (places.query.has(k)) query[k] = text(v);
    else if (places.body.has(k)) body[k] = v;
  }
  for (const name of places.params) {
    if (!(name in params))
      throw new ToolError("validation_failed", `${name} is required.`, {
        issues: [{ path: name, message: "Required." }],
      });
  }
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
  return { endpoint, path, params, query, body: endpoint.body ? body : undefined };
}

/** Calls an endpoint; an error answer becomes a ToolError with the API's code. */
export async function callEndpoint(
  invoke: Invoke,
  endpoint: Endpoint,
  args: Record<string, unknown>,
  toolOnly?: ReadonlySet<string>,
): Promise<any> {
  const answer = await invoke(requestOf(endpoint, args, toolOnly));
  if (answer.status < 400) return answer.body;
  const error = (answer.body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
  throw new ToolError(
    error?.code ?? "internal_error",
    error?.message ?? `The API answered ${answer.status}.`,
    error?.details,
  );
}

/**
 * A page that stays under the character budget: asked again with a smaller limit (same cursor)
 * while it is too long, so a page is never cut and a cursor never skips an item.
 */
export async function pageThatFits(
  invoke: Invoke,
  endpoint: Endpoint,
  args: Record<string, unknown>,
  defaultLimit: number,
): Promise<any> {
  let limit = (args.limit as number | undefined) ?? defaultLimit;
  for (;;) {
    const page = await callEndpoint(invoke, endpoint, { ...args, limit });
    if (limit === 1 || JSON.stringify(page).length <= MAX_RESULT_CHARS)
      return { ...page, nextCursor: page.nextCursor ?? null };
    limit = Math.max(1, Math.floor(limit / 2));
  }
}

/** Tool-only limits (at most 100 rows per call, and so on), checked before the API is called. */
export function checkToolInput(
  args: Record<string, unknown>,
  extra: Record<string, z.ZodType>,
  maxItems: Record<string, number>,
) {
  for (const [name, schema] of Object.entries(extra)) {
    const parsed = schema.safeParse(args[name]);
    if (!parsed.success) {
      throw new ToolError("validation_failed", `${name}: ${parsed.error.issues[0]?.message}`, {
        issues: parsed.error.issues.map((i) => ({ path: [name, ...i.path].join("."), message: i.message })),
      });
    }
  }
  for (const [name, max] of Object.entries(maxItems)) {
    const v = args[name];
    if (Array.isArray(v) && v.length > max) {
      throw new ToolError(
        name === "rows" ? "too_many_rows" : "validation_failed",
        `At most ${max} ${name} per tool call; got ${v.length}. Send them in several calls.`,
      );
    }
  }
}

// A tool answer stays under about 50,000 characters: long strings are cut, and the summary says so.
export const MAX_RESULT_CHARS = 50_000;

export function fitResult<T>(value: T): { value: T; truncated: boolean } {
  if (JSON.stringify(value).length <= MAX_RESULT_CHARS) return { value, truncated: false };
  for (let cap = 4_000; cap >= 50; cap = Math.floor(cap / 2)) {
    const cut = truncateStrings(value, cap) as T;
    if (JSON.stringify(cut).length <= MAX_RESULT_CHARS) return { value: cut, truncated: true };
  }
  // Still too long (a list with no paging, such as hundreds of bases): keep the first items.
  let cut = truncateStrings(value, 50) as T;
  for (let keep = 256; keep >= 1 && JSON.stringify(cut).length > MAX_RESULT_CHARS; keep = Math.floor(keep / 2))
    cut = truncateArrays(cut, keep) as T;
  return { value: cut, truncated: true };
}

function truncateArrays(v: unknown, keep: number): unknown {
  if (Array.isArray(v)) return v.slice(0, keep).map((x) => truncateArrays(x, keep));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, truncateArrays(x, keep)]));
  return v;
}

function truncateStrings(v: unknown, cap: number): unknown {
  if (typeof v === "string")
    return v.length <= cap ? v : `${v.slice(0, cap)}… [${(v.length - cap).toLocaleString("en-US")} more characters]`;
  if (Array.isArray(v)) return v.map((x) => truncateStrings(x, cap));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, truncateStrings(x, cap)]));
  return v;
}
