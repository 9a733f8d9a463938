import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { openApiDocument } from "../../lib/http/openapi.ts";
import { findEndpoint } from "../../lib/http/schemas/index.ts";

// Every response the API suites receive through the test client is checked against the OpenAPI
// document: its status must be documented for the operation, its content type declared, and a
// JSON body must fit the documented schema. Drift between the document and the API fails a test.

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const doc = openApiDocument() as {
  paths: Record<string, Record<string, { responses: Record<string, any> }>>;
  components: unknown;
};
ajv.addSchema({ components: doc.components }, "doc");
const compiled = new Map<object, ValidateFunction>();

// "#/components/schemas/Error" inside a response schema points at the document.
const withRefs = (schema: object) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/components/', '"$ref":"doc#/components/'));

export function checkAgainstOpenApi(
  method: string,
  path: string,
  status: number,
  contentType: string,
  body: unknown,
  text: string,
): void {
  const { pathname } = new URL(path, "http://localhost");
  const endpoint = pathname.startsWith("/api/v1/") ? findEndpoint(method, pathname) : undefined;
  if (!endpoint) return;
  const where = `${method} ${path} → ${status} (OpenAPI ${endpoint.method} ${endpoint.path})`;
  const responses = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()]?.responses;
  if (!responses) throw new Error(`${where}: the operation is missing from the OpenAPI document`);
  const response = responses[String(status)] ?? (status >= 400 ? responses.default : undefined);
  if (!response) throw new Error(`${where}: status ${status} is not documented`);
  const media = contentType.split(";")[0].trim();
  if (!response.content) {
    if (text !== "") throw new Error(`${where}: a body where the document says there is none`);
    return;
  }
  const content = response.content[media] ?? response.content["*/*"];
  if (!content)
    throw new Error(
      `${where}: content type ${media || "(none)"} is not documented (${Object.keys(response.content ?? {}).join(", ")})`,
    );
  // A streamed body cut short by a failure mid-stream is not JSON: that is the stream's own test.
  if (media !== "application/json" || (typeof body === "string" && body === text && text !== "")) return;
  let validate = compiled.get(content.schema);
  if (!validate) compiled.set(content.schema, (validate = ajv.compile(withRefs(content.schema))));
  if (!validate(body)) {
    const issues = validate.errors!.slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message}`);
    throw new Error(`${where}: the body does not fit the OpenAPI schema: ${issues.join("; ")}\n${text.slice(0, 300)}`);
  }
}
