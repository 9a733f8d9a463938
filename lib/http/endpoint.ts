import { z } from "zod";
import type { ErrorCode } from "../errors.ts";
import type { Permission } from "../auth/permissions.ts";

// An endpoint is declared once, schema first: method, path, path params, query, body and
// response, each field with its limits and a description. Handlers parse with it (route() in
// respond.ts), tests check real responses against it, and the OpenAPI document and MCP tools are
// generated from the registry in schemas/index.ts.

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** How the request body is read before it is parsed. */
export type BodyType =
  /** application/json (415 otherwise). */
  | "json"
  /** As json, but no body and no content type means `{}`, so `curl -X POST` works. */
  | "optional-json"
  /** multipart/form-data with the file field `file`: the handler streams it from the request. */
  | "multipart"
  /** A file as the body itself, or as the multipart field `file`: the handler streams it from the request. */
  | "upload";

export interface EndpointSpec {
  method: HttpMethod;
  /** OpenAPI style: `/api/v1/bases/{baseId}/rows`. */
  path: `/api/v1${string}`;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The documented body. The edge enforces it unless parseBody is given. */
  body?: z.ZodType;
  /**
   * What the edge enforces instead of `body`, when items are checked one by one further in (Add
   * Rows lists every problem of every row at once; Update Rows reports failed rows in `errors`;
   * the chat messages have their own error code). The item schema is the same object in both.
   */
  parseBody?: z.ZodType;
  bodyType?: BodyType;
  /** Defaults to the runtime's maxBodyBytes (20 MB). */
  maxBodyBytes?: number;
  /** The success body; for non-JSON answers it describes the content in its description. */
  response: z.ZodType;
  /** Default application/json. */
  responseContentType?: string;
  /** Default 200. */
  status?: number;
  /** Authenticates itself (sign-in, session) instead of by X-API-Key or session cookie. */
  public?: boolean;
  /**
   * The permission a caller needs (lib/auth/permissions.ts); every endpoint that is not public
   * names one. route() checks it, and OpenAPI and MCP list it.
   */
  scope?: Permission;
  /** Spends credits on every call (the assistant): needs runs:write besides its scope. */
  spendsCredits?: boolean;
  /**
   * Reaches every base of the workspace, or makes a new one: a key limited to some bases is
   * refused (403 base_not_in_scope).
   */
  allBases?: boolean;
  /** What a successful call records in the audit log (docs/audit.md); route() writes the entry. */
  audit?: AuditSpec;
}

/**
 * One audit declaration per endpoint. The target's id is the path param `<target>Id`, else the
 * answer's `<target>Id`, else the answer's `id`; the base is the path's or the answer's `baseId`.
 */
export interface AuditSpec {
  /** `<noun>.<verb>`, e.g. column.update. */
  action: `${string}.${string}`;
  /** The target's type (base, column, view, key, webhook, run, ...); none for actions on many things. */
  target?: string;
  /**
   * Fields kept in the summary: of the answer; or, when the handler gave the state before
   * (ctx.audit.before), the changed ones as {before, after}, and for a delete {before}.
   */
  fields?: readonly string[];
  /** Record only when a target id is found (Add Rows starts a run only when it queued cells). */
  optional?: boolean;
}

export type Endpoint = Readonly<EndpointSpec>;

export function defineEndpoint<const S extends EndpointSpec>(spec: S): Readonly<S> {
  return Object.freeze(spec);
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export type ParamsOf<E> = E extends { params: infer P } ? Out<P> : Record<string, never>;
export type QueryOf<E> = E extends { query: infer Q } ? Out<Q> : Record<string, never>;
export type BodyOf<E> = E extends { bodyType: "multipart" | "upload" }
  ? undefined
  : E extends { parseBody: infer B }
    ? Out<B>
    : E extends { body: infer B }
      ? Out<B>
      : undefined;

// Path params that do not fit their schema answer as an unknown resource would (404 with the
// resource's code), never 400: an id that cannot exist is simply not found.
const notFoundCodes = z.registry<{ code: ErrorCode }>();

/** A path parameter: an id of at most 100 characters. */
export function pathId(description: string, notFound: ErrorCode) {
  // Ids are base62 with a prefix: anything else (a NUL, a space, a dot) names nothing, and is
  // refused before it reaches a query.
  const schema = z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/)
    .describe(description);
  notFoundCodes.add(schema, { code: notFound });
  return schema;
}

export const notFoundCodeOf = (schema: unknown): ErrorCode =>
  (schema instanceof z.ZodType ? notFoundCodes.get(schema)?.code : undefined) ?? "not_found";

/**
 * An array of at most `max` items; more is answered with its own catalog code (e.g.
 * too_many_rows) instead of validation_failed: the code travels in the issue's params.
 */
export function limitedArray<T extends z.ZodType>(item: T, max: number, code: ErrorCode, noun = "items") {
  return z
    .array(item)
    .check((ctx) => {
      if (ctx.value.length > max) {
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: `At most ${max.toLocaleString("en-US")} ${noun} per request; got ${ctx.value.length.toLocaleString("en-US")}.`,
          params: { code },
        });
      }
    })
    .meta({ maxItems: max });
}

/** `expand`-style flags accept true/false/1/0; anything else is a client mistake. */
export function booleanQuery(name: string, description: string) {
  // Case-insensitive: Python's requests sends True and False.
  return z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(["true", "false", "1", "0"], { error: `${name} must be true, false, 1 or 0.` }))
    .optional()
    .transform((v) => v === "true" || v === "1")
    .describe(description);
}

/** A whole number from min to max, given as query text. */
export function intQuery(name: string, min: number, max: number, description: string) {
  const message = `${name} must be a whole number from ${min} to ${max}.`;
  return z
    .string()
    .transform(Number)
    .pipe(z.number({ error: message }).int(message).min(min, message).max(max, message))
    .optional()
    .describe(description);
}

// A secret in an answer (a new API key, a webhook's signing secret) is shown once: a replay of the
// request (Idempotency-Key) carries null in its place, so the stored answer never holds it.
const secretFields = z.registry<{ secret: true }>();

/** A response field holding a secret: a string in the first answer, null in a replay of it. */
export function secretField(description: string) {
  const schema = z.string().nullable().describe(description);
  secretFields.add(schema, { secret: true });
  return schema;
}

/** The response fields of an endpoint that hold a secret (top level). */
export function secretFieldsOf(endpoint: Endpoint): string[] {
  const shape = (endpoint.response as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.keys(shape).filter((name) => secretFields.has(shape[name]));
}
