import { z } from "zod";
import type { Endpoint } from "../http/endpoint.ts";
import { jsonSchema, querySchema } from "../http/openapi.ts";

// A tool's JSON Schemas, built from its endpoints' schemas: the input is the endpoints' path
// params, query and body fields side by side (as an agent passes them: one flat object); the
// output is the first endpoint's response. The endpoint still validates every call itself.

export type Json = Record<string, unknown>;

export interface FieldPlace {
  params: Set<string>;
  query: Set<string>;
  body: Set<string>;
}

const isOptional = (schema: z.ZodType) => schema.safeParse(undefined).success;

/** Which fields of a flat argument object go to the path, the query and the body. */
export function placesOf(e: Endpoint): FieldPlace {
  const body = e.body instanceof z.ZodObject ? Object.keys(e.body.shape) : [];
  return {
    params: new Set(Object.keys(e.params?.shape ?? {})),
    query: new Set(Object.keys(e.query?.shape ?? {})),
    body: new Set(body),
  };
}

/**
 * The properties and required names of the endpoints' inputs, merged. A field required by every
 * endpoint that has it stays required; `extra` adds or replaces fields (tool-only limits).
 */
export function inputSchema(
  endpoints: readonly Endpoint[],
  extra: Record<string, z.ZodType> = {},
  maxItems: Record<string, number> = {},
): Json {
  const properties: Record<string, Json> = {};
  // Definitions a recursive body schema (a filter tree) refers to: they live at the tool schema's root.
  const defs: Record<string, Json> = {};
  const requiredBy = new Map<string, number>();
  const seen = new Map<string, number>();
  const note = (name: string, required: boolean) => {
    seen.set(name, (seen.get(name) ?? 0) + 1);
    if (required) requiredBy.set(name, (requiredBy.get(name) ?? 0) + 1);
  };
  for (const e of endpoints) {
    for (const [name, s] of Object.entries(e.params?.shape ?? {}) as [string, z.ZodType][]) {
      properties[name] ??= jsonSchema(s, "input");
      note(name, true);
    }
    for (const [name, s] of Object.entries(e.query?.shape ?? {}) as [string, z.ZodType][]) {
      properties[name] ??= querySchema(s);
      note(name, !isOptional(s));
    }
    if (e.body instanceof z.ZodObject) {
      const body = jsonSchema(e.body, "input");
      Object.assign(defs, body.$defs ?? {});
      const required = new Set((body.required as string[] | undefined) ?? []);
      for (const [name, s] of Object.entries((body.properties ?? {}) as Record<string, Json>)) {
        properties[name] ??= s;
        note(name, required.has(name) && e.bodyType !== "optional-json");
      }
    }
  }
  for (const [name, s] of Object.entries(extra)) {
    properties[name] = jsonSchema(s, "input");
    seen.set(name, 1);
    requiredBy.set(name, isOptional(s) ? 0 : 1);
  }
  for (const [name, max] of Object.entries(maxItems))
    if (properties[name]) properties[name] = { ...properties[name], maxItems: max };
  const required = [...seen].filter(([name, n]) => requiredBy.get(name) === n).map(([name]) => name);
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    ...(Object.keys(defs).length ? { $defs: defs } : {}),
  };
}

/** MCP wants an object schema at the root; a union of objects (Get Row) is still one. */
export function outputSchema(schema: z.ZodType): Json {
  const json = jsonSchema(schema, "output");
  return json.type === "object" ? json : { type: "object", ...json };
}
