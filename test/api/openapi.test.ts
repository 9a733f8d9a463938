import path from "node:path";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ts from "typescript";
import openapiTS, { astToString } from "openapi-typescript";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createTestApp, type TestApp } from "../support/app.ts";
import { ENDPOINTS } from "../../lib/http/schemas/index.ts";
import { REQUEST_EXAMPLES } from "../../lib/http/openapi-examples.ts";
import { HTTP_METHODS } from "../../lib/http/endpoint.ts";
import { checkAgainstOpenApi } from "../support/openapi-check.ts";

// GET /api/v1/openapi.json: an OpenAPI 3.1 document generated from the endpoint registry. It is
// valid, covers every route under app/api/v1, and compiles into a typed client. (Every response
// of the API suites is checked against it by the test client: test/support/openapi-check.ts.)

let app: TestApp;
let doc: any;

beforeAll(async () => {
  app = await createTestApp();
  const res = await app.api("GET", "/api/v1/openapi.json", { key: null });
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => app.close());

const ROOT = path.resolve(import.meta.dirname, "../..");

function routeFiles(dir: string, segments: string[] = []): { file: string; path: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full, [...segments, name]);
    return name === "route.ts"
      ? [{ file: full, path: ["/api/v1", ...segments.map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))].join("/") }]
      : [];
  });
}

describe("the OpenAPI document", () => {
  it("is served without a key and validates as OpenAPI 3.1", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("has every method of every route under app/api/v1", async () => {
    const routes = routeFiles(path.join(ROOT, "app/api/v1")).filter((r) => !r.path.includes("{..."));
    expect(routes.length).toBeGreaterThan(20);
    let served = 0;
    for (const r of routes) {
      const mod = (await import(r.file)) as Record<string, { notAllowed?: true } | undefined>;
      for (const method of HTTP_METHODS) {
        if (!mod[method] || mod[method]!.notAllowed) continue;
        served++;
        expect(doc.paths[r.path]?.[method.toLowerCase()], `${method} ${r.path}`).toBeDefined();
      }
    }
    expect(served).toBe(ENDPOINTS.length);
  });

  it("describes parameters, bodies, limits, responses with their statuses, and the key", () => {
    expect(doc.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
    );
    const add = doc.paths["/api/v1/bases/{baseId}/add-rows"].post;
    expect(add.requestBody.content["application/json"].schema.properties.rows.maxItems).toBe(10_000);
    expect(add.parameters.map((p: any) => p.name)).toEqual(["baseId", "expand", "Idempotency-Key"]);
    expect(add.parameters.find((p: any) => p.name === "expand")).toMatchObject({ in: "query" });
    expect(add.parameters.find((p: any) => p.name === "expand").required).not.toBe(true);
    expect(Object.keys(add.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "404", "409", "422", "default"]),
    );
    expect(add.responses["404"].description).toContain("base_not_found");
    const rows = doc.paths["/api/v1/bases/{baseId}/rows"].get;
    expect(rows.parameters.find((p: any) => p.name === "limit").schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 10_000,
    });
    const column = doc.paths["/api/v1/bases/{baseId}/columns"].post.requestBody.content["application/json"].schema;
    expect(column.properties.name.maxLength).toBe(100);
    expect(doc.paths["/api/v1/bases"].post.responses["201"]).toBeDefined();
    expect(doc.paths["/api/v1/openapi.json"].get.security).toEqual([]);
    const ids = ENDPOINTS.map((e) => doc.paths[e.path][e.method.toLowerCase()].operationId);
    expect(new Set(ids).size).toBe(ENDPOINTS.length);
  });

  it("describes the event streams as text/event-stream, with their event types", () => {
    const events = doc.paths["/api/v1/bases/{baseId}/events"].get.responses["200"];
    expect(Object.keys(events.content)).toEqual(["text/event-stream"]);
    for (const type of [
      "cell.updated",
      "rows.changed",
      "structure.changed",
      "row.sheet.processed",
      "run.updated",
      "find.updated",
    ])
      expect(events.description).toContain(type);
    const configure = doc.paths["/api/v1/bases/ai-configure-base"].post.responses["200"];
    expect(Object.keys(configure.content).sort()).toEqual(["application/json", "text/event-stream"]);
    expect(configure.description).toContain("data-result");
  });

  it("groups the find endpoints, and offers find.completed and schedule.completed to webhooks", () => {
    const finds = Object.keys(doc.paths).filter((p) => p.startsWith("/api/v1/bases/{baseId}/finds"));
    expect(finds).toHaveLength(4);
    for (const p of finds) for (const op of Object.values<any>(doc.paths[p])) expect(op.tags).toEqual(["Finds"]);
    const events = doc.paths["/api/v1/webhooks"].post.requestBody.content["application/json"].schema.properties.events;
    expect(events.items.enum).toEqual([
      "row.sheet.processed",
      "run.completed",
      "find.completed",
      "cell.changed",
      "schedule.completed",
    ]);
  });

  it("has examples that fit their endpoints' schemas", () => {
    const entries = Object.entries(REQUEST_EXAMPLES);
    expect(entries.length).toBeGreaterThan(5);
    for (const [key, example] of entries) {
      const endpoint = ENDPOINTS.find((e) => `${e.method} ${e.path}` === key);
      expect(endpoint, key).toBeDefined();
      const parsed = endpoint!.body!.safeParse(example);
      expect(parsed.success, `${key}: ${parsed.error?.message}`).toBe(true);
      const [method, p] = key.split(" ");
      expect(doc.paths[p][method.toLowerCase()].requestBody.content["application/json"].examples.example.value).toEqual(
        example,
      );
    }
  });

  it("fails a response that drifts from it: an undocumented status, or a body that does not fit", () => {
    const rowPath = "/api/v1/bases/AbCd1234/rows/sr_x";
    const json = "application/json";
    expect(() => checkAgainstOpenApi("GET", rowPath, 200, json, { id: "sr_x", cells: { A: "a" } }, "{}")).not.toThrow();
    expect(() => checkAgainstOpenApi("GET", rowPath, 200, json, { id: "sr_x", cells: { A: 1 } }, "{}")).toThrow(
      /does not fit/,
    );
    expect(() => checkAgainstOpenApi("GET", rowPath, 200, "text/html", "<p>", "<p>")).toThrow(/not documented/);
    expect(() => checkAgainstOpenApi("POST", "/api/v1/bases", 200, json, {}, "{}")).toThrow(
      /status 200 is not documented/,
    );
    expect(() => checkAgainstOpenApi("GET", rowPath, 404, json, { error: { code: "row_not_found" } }, "{}")).toThrow(
      /does not fit/,
    );
  });

  it("compiles into a typed client with openapi-typescript and openapi-fetch", async () => {
    const types = astToString(await openapiTS(doc));
    const dir = mkdtempSync(path.join(tmpdir(), "cw-openapi-"));
    try {
      writeFileSync(path.join(dir, "api.d.ts"), types);
      const fetchTypes = path.join(ROOT, "node_modules/openapi-fetch/dist/index.mjs");
      writeFileSync(
        path.join(dir, "client.ts"),
        `import createClient from ${JSON.stringify(fetchTypes)};
import type { paths } from "./api";
const client = createClient<paths>({ baseUrl: "http://localhost:3000", headers: { "X-API-Key": "cw_key" } });
export async function firstPage(baseId: string): Promise<string[]> {
  const { data, error } = await client.GET("/api/v1/bases/{baseId}/rows", { params: { path: { baseId }, query: { limit: 100, expand: "true" } } });
  if (error) throw new Error(error.error.code);
  const added = await client.POST("/api/v1/bases/{baseId}/add-rows", {
    params: { path: { baseId }, header: { "Idempotency-Key": "import-42" } },
    body: { rows: [{ cells: { Company: "Acme" } }] },
  });
  const ids: string[] = added.data?.rows.map((r) => r.id) ?? [];
  // @ts-expect-error a path the API does not have
  await client.GET("/api/v1/no-such-path");
  // @ts-expect-error limit is a number
  await client.GET("/api/v1/bases/{baseId}/rows", { params: { path: { baseId }, query: { limit: "ten" } } });
  return [...(data?.rows.map((r) => r.id) ?? []), ...ids];
}
`,
      );
      const program = ts.createProgram([path.join(dir, "client.ts")], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
        skipLibCheck: true,
        types: [],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
