import path from "node:path";
import { readdirSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ENDPOINTS, findEndpoint } from "../../lib/http/schemas/index.ts";
import { HTTP_METHODS, type Endpoint } from "../../lib/http/endpoint.ts";

// Every /api/v1 route serves exactly the endpoints the registry declares, and every schema is
// complete enough to generate an OpenAPI document from: each field described, JSON Schema-able.

const apiRoot = path.resolve(import.meta.dirname, "../../app/api/v1");

function routeFiles(dir: string, segments: string[] = []): { file: string; path: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full, [...segments, name]);
    if (name !== "route.ts") return [];
    return [{ file: full, path: ["/api/v1", ...segments.map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))].join("/") }];
  });
}

// The catch-all answers unknown paths with a JSON 404; it is not an endpoint.
const routes = routeFiles(apiRoot)
  .filter((r) => !r.path.includes("{..."))
  .sort((a, b) => a.path.localeCompare(b.path));

type Served = { method: string; path: string; endpoint: unknown };

async function servedMethods(): Promise<Served[]> {
  const served: Served[] = [];
  for (const r of routes) {
    const mod = (await import(r.file)) as Record<string, { endpoint?: Endpoint; notAllowed?: true } | undefined>;
    for (const method of HTTP_METHODS) {
      const handler = mod[method];
      if (handler && !handler.notAllowed) served.push({ method, path: r.path, endpoint: handler.endpoint });
    }
  }
  return served;
}

const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

describe("the endpoint registry", () => {
  it("has one descriptor per method each route serves, and the route parses with it", async () => {
    const served = await servedMethods();
    expect(served.length).toBeGreaterThan(30);
    for (const s of served) {
      const declared = ENDPOINTS.find((e) => key(e) === key(s));
      expect(declared, `${key(s)} has no descriptor`).toBeDefined();
      expect(s.endpoint, `${key(s)} is not declared with route(endpoint, …)`).toBe(declared);
    }
  });

  it("has no descriptor without a route, and none twice", async () => {
    const served = new Set((await servedMethods()).map(key));
    for (const e of ENDPOINTS) expect(served.has(key(e)), `${key(e)} has no route`).toBe(true);
    expect(new Set(ENDPOINTS.map(key)).size).toBe(ENDPOINTS.length);
  });

  it("declares the path params of its path", () => {
    for (const e of ENDPOINTS) {
      const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(e.params?.shape ?? {}).sort(), key(e)).toEqual(names);
    }
  });

  it("finds the endpoint of a concrete path, static segments first", () => {
    expect(findEndpoint("POST", "/api/v1/bases/ai-configure-base")?.summary).toBe("AI Configure Base");
    expect(findEndpoint("GET", "/api/v1/bases/AbCd1234/rows/sr_x")?.summary).toBe("Get Row");
    expect(findEndpoint("PUT", "/api/v1/bases")).toBeUndefined();
  });
});

/** Every property of every object in a JSON Schema, with where it is. */
function properties(node: unknown, at: string, out: { at: string; schema: Record<string, unknown> }[] = []) {
  if (Array.isArray(node)) node.forEach((n, i) => properties(n, `${at}[${i}]`, out));
  else if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === "object") {
      for (const [name, schema] of Object.entries(o.properties as Record<string, Record<string, unknown>>)) {
        out.push({ at: `${at}.${name}`, schema });
      }
    }
    for (const [k, v] of Object.entries(o)) properties(v, k === "properties" ? at : `${at}.${k}`, out);
  }
  return out;
}

describe.each(ENDPOINTS.map((e) => [key(e), e] as const))("%s", (_name, e) => {
  const parts = [
    ["params", e.params, "input"],
    ["query", e.query, "input"],
    ["body", e.body, "input"],
    ["response", e.response, "output"],
  ] as const;

  it("has a summary, and a status and content type that make sense", () => {
    expect(e.summary.length).toBeGreaterThan(0);
    expect(e.path).toMatch(/^\/api\/v1\//);
    if (e.body) expect(["POST", "PATCH", "PUT"]).toContain(e.method);
  });

  it.each(parts.filter(([, s]) => s !== undefined).map(([name, schema, io]) => [name, schema!, io] as const))(
    "%s converts to JSON Schema and describes every field",
    (_part, schema, io) => {
      const json = z.toJSONSchema(schema as z.ZodType, { io });
      const missing = properties(json, _part).filter(
        (p) => typeof p.schema.description !== "string" || p.schema.description === "",
      );
      expect(missing.map((m) => m.at)).toEqual([]);
    },
  );

  it("describes its response as a whole or field by field", () => {
    const json = z.toJSONSchema(e.response, { io: "output" }) as Record<string, unknown>;
    expect(typeof json.description === "string" || json.type === "object" || Array.isArray(json.anyOf)).toBe(true);
  });
});

describe("scenario responses are checked against these schemas", () => {
  it("fails a response that drifts from its endpoint's schema", async () => {
    const { expectDeclaredResponse } = await import("./scenario.ts");
    const res = (body: unknown) => ({ status: 200, body, headers: new Headers(), text: JSON.stringify(body) });
    const row = { id: "sr_x", cells: { Company: "Acme" } };
    expectDeclaredResponse("GET", "/api/v1/bases/AbCd1234/rows/sr_x", res(row));
    expect(() =>
      expectDeclaredResponse("GET", "/api/v1/bases/AbCd1234/rows/sr_x", res({ ...row, extra: 1 })),
    ).toThrow();
    expect(() =>
      expectDeclaredResponse("GET", "/api/v1/bases/AbCd1234/rows/sr_x", res({ id: "sr_x", cells: { Company: 42 } })),
    ).toThrow();
  });
});
