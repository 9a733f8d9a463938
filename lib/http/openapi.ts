import { z } from "zod";
import { ERROR_CATALOG } from "../errors.ts";
import { secretFieldsOf, type Endpoint } from "./endpoint.ts";
import { errorResponses } from "./openapi-errors.ts";
import { ENDPOINTS } from "./schemas/index.ts";
import { REQUEST_EXAMPLES } from "./openapi-examples.ts";
import { stripBetween } from "../text.ts";
import { ACCESS_DESCRIPTION, accessNote, operationSecurity } from "./openapi-access.ts";

// The OpenAPI 3.1 document, generated from the endpoint registry (schemas/index.ts): an endpoint
// declared with defineEndpoint and listed there is in the document with nothing else to do.
// OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what Zod's toJSONSchema writes.

type Json = Record<string, unknown>;

const ERROR_SCHEMA = {
  type: "object",
  description: "Every error: a stable code from the catalog, a message, and sometimes details.",
  required: ["error"],
  additionalProperties: false,
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      additionalProperties: false,
      properties: {
        code: { type: "string", enum: Object.keys(ERROR_CATALOG), description: "A stable code of the error catalog." },
        message: { type: "string", description: "What went wrong, for people." },
        details: { description: "More to say, when there is: each problem of a validation, the path of a cycle." },
      },
    },
  },
};

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as Json;
  return rest;
}

// A recursive schema (a filter tree) comes with `$defs` that its `$ref`s point into. Inside the
// document those refs would resolve against the document's root, so the definitions move to
// components.schemas, under names unique in the document.
let hoisted: Record<string, Json> = {};

function docSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $defs, ...rest } = jsonSchema(schema, io) as Json & { $defs?: Record<string, Json> };
  if (!$defs) return rest;
  const taken = Object.keys(hoisted).length;
  const names = new Map(Object.keys($defs).map((k, i) => [k, `Def${taken + i + 1}`]));
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v === null || typeof v !== "object") return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === "$ref" && typeof x === "string" && x.startsWith("#/$defs/")
          ? `#/components/schemas/${names.get(x.slice(8))}`
          : rewrite(x),
      ]),
    );
  };
  for (const [k, def] of Object.entries($defs)) hoisted[names.get(k)!] = rewrite(def) as Json;
  return rewrite(rest) as Json;
}

/**
 * The media types an endpoint answers with: "application/json, or text/event-stream when…" gives
 * both; a content type naming none ("none (303 redirect…)") gives none: the answer has no body.
 */
export function responseMediaTypes(e: Endpoint): string[] {
  if (e.responseContentType === undefined) return ["application/json"];
  return e.responseContentType.split(/[\s,;()]+/).filter((word) => /^([a-z]+|\*)\/([a-z0-9.+-]+|\*)$/.test(word));
}

const isOptional = (schema: z.ZodType) => schema.safeParse(undefined).success;

/**
 * A query value is text; one parsed into a number is documented as the number it must be, with
 * its bounds (limit=100 is an integer from 1 to 10,000 to a client, not any string).
 */
export function querySchema(schema: z.ZodType): Json {
  const output = docSchema(schema, "output");
  return output.type === "integer" || output.type === "number" ? output : docSchema(schema, "input");
}

function parameters(e: Endpoint): Json[] {
  const out: Json[] = [];
  for (const [name, schema] of Object.entries(e.params?.shape ?? {}) as [string, z.ZodType][]) {
    out.push({ name, in: "path", required: true, description: schema.description, schema: docSchema(schema, "input") });
  }
  for (const [name, schema] of Object.entries(e.query?.shape ?? {}) as [string, z.ZodType][]) {
    out.push({
      name,
      in: "query",
      required: !isOptional(schema),
      description: schema.description,
      schema: querySchema(schema),
    });
  }
  if (e.method === "POST" && !e.public) {
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Makes a retry safe: the first answer is stored for 24 hours and replayed (with Idempotency-Replayed: true) to a repeat of the same request.",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
    });
  }
  return out;
}

const UPLOAD_TYPES = [
  "text/csv",
  "text/tab-separated-values",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/x-ndjson",
];

function requestBody(e: Endpoint): Json | undefined {
  if (!e.body) return undefined;
  const schema = docSchema(e.body, "input");
  const example = REQUEST_EXAMPLES[`${e.method} ${e.path}`];
  if (e.bodyType === "upload") {
    const file = { type: "string", format: "binary" };
    return {
      required: true,
      description: (schema.description as string | undefined) ?? "The file.",
      content: Object.fromEntries([
        ...UPLOAD_TYPES.map((t) => [t, { schema: file }]),
        ["multipart/form-data", { schema: { type: "object", properties: { file } } }],
      ]),
    };
  }
  const media = e.bodyType === "multipart" ? "multipart/form-data" : "application/json";
  return {
    required: e.bodyType !== "optional-json",
    ...(e.bodyType === "optional-json" ? { description: "Optional: no body at all means {}." } : {}),
    content: { [media]: { schema, ...(example ? { examples: { example: { value: example } } } : {}) } },
  };
}

const REPLAYED_HEADER = {
  description: "true when this is the stored answer to an earlier request with the same Idempotency-Key.",
  schema: { type: "string", enum: ["true"] },
};

const WITHHELD_HEADER = {
  description: "On a replay: the fields whose secret is withheld (null). A secret is shown once, in the first answer.",
  schema: { type: "string" },
};

function responses(e: Endpoint): Json {
  const media = responseMediaTypes(e);
  const schema = docSchema(e.response, "output");
  const content = Object.fromEntries(
    media.map((m) => [
      m,
      { schema: m === "application/json" ? schema : { type: "string", description: schema.description } },
    ]),
  );
  const streamed = media.includes("text/event-stream");
  const replayable = e.method === "POST" && !e.public;
  const out: Json = {
    [String(e.status ?? 200)]: {
      description: (streamed ? e.description : undefined) ?? (schema.description as string | undefined) ?? e.summary,
      ...(replayable
        ? {
            headers: {
              "Idempotency-Replayed": REPLAYED_HEADER,
              ...(secretFieldsOf(e).length ? { "Idempotency-Withheld": WITHHELD_HEADER } : {}),
            },
          }
        : {}),
      ...(media.length ? { content } : {}),
    },
  };
  return { ...out, ...errorResponses(e) };
}

const TAGS: [RegExp, string][] = [
  [/^\/api\/v1\/bases\/\{baseId\}\/(rows|add-rows|update-rows|delete-rows)/, "Rows"],
  [/^\/api\/v1\/bases\/\{baseId\}\/columns/, "Columns"],
  [/^\/api\/v1\/bases\/\{baseId\}\/(run|runs|review)/, "Runs"],
  [/^\/api\/v1\/bases\/(ai-configure-base|\{baseId\}\/chat)/, "Assistant"],
  [/^\/api\/v1\/bases\/\{baseId\}\/events/, "Events"],
  [/^\/api\/v1\/bases\/\{baseId\}\/finds/, "Finds"],
  [/^\/api\/v1\/bases\/\{baseId\}\/schedules/, "Schedules"],
  [/\/files/, "Files"],
  [/\/openapi\.json$/, "OpenAPI"],
];

function tagOf(path: string): string {
  const hit = TAGS.find(([re]) => re.test(path));
  if (hit) return hit[1];
  const first = path.split("/")[3] ?? "api";
  return (
    first.charAt(0).toUpperCase() +
    first
      .slice(1)
      .replace(/-(\w)/g, (_, c: string) => ` ${c.toUpperCase()}`)
      .replace(/\.json$/, "")
  );
}

/** "Create a base" → createBase; unique across the document. */
function operationIds(): Map<Endpoint, string> {
  const ids = new Map<Endpoint, string>();
  const used = new Set<string>();
  for (const e of ENDPOINTS) {
    const words = stripBetween(e.summary, "(", ")")
      .split(/[^A-Za-z0-9]+/)
      .filter((w) => w && !/^(a|an|the|of|or|its)$/i.test(w));
    let id = words
      .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
      .join("");
    while (used.has(id)) id += "Again";
    used.add(id);
    ids.set(e, id);
  }
  return ids;
}

function operation(e: Endpoint, id: string): Json {
  const body = requestBody(e);
  const params = parameters(e);
  return {
    operationId: id,
    summary: e.summary,
    description: e.description ? `${e.description}\n\n${accessNote(e)}` : accessNote(e),
    tags: [tagOf(e.path)],
    security: operationSecurity(e),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(e),
  };
}

let cached: Json | undefined;

/** The document; built once per process, since the registry does not change at run time. */
export function openApiDocument(): Json {
  if (cached) return cached;
  hoisted = {};
  const ids = operationIds();
  const paths: Record<string, Record<string, Json>> = {};
  for (const e of ENDPOINTS) (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e, ids.get(e)!);
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Cellwright API",
      version: "1",
      summary: "An open-source AI enrichment table: bases, rows, AI columns with sources, runs, webhooks.",
      description:
        "Every endpoint needs an API key in X-API-Key (a signed-in browser sends its session cookie instead). " +
        "Errors are JSON { error: { code, message, details? } } with stable codes. A POST may carry an " +
        "Idempotency-Key to make retries safe. The same operations are MCP tools at /mcp.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This Cellwright server." }],
    security: [{ apiKey: [] }, { sessionCookie: [] }],
    tags: [...new Set(ENDPOINTS.map((e) => tagOf(e.path)))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: `An API key: cw_ followed by 40 characters. ${ACCESS_DESCRIPTION}`,
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "cellwright_session",
          description: "The web app's session, made by POST /api/v1/session.",
        },
      },
      schemas: { Error: ERROR_SCHEMA, ...hoisted },
    },
  };
  return cached;
}
