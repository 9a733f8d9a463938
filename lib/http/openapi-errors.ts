import { ERROR_CATALOG, type ErrorCode } from "../errors.ts";
import { notFoundCodeOf, type Endpoint } from "./endpoint.ts";

// The error answers of an endpoint in the OpenAPI document: each status it can answer with, and
// the catalog codes behind it, derived from what the endpoint declares (body, query, auth, params).

/** The error statuses an endpoint can answer with, each with the catalog codes behind it. */
function errorStatuses(e: Endpoint): Map<number, ErrorCode[]> {
  const statuses = new Map<number, ErrorCode[]>();
  const add = (...codes: ErrorCode[]) => {
    for (const code of codes)
      statuses.set(ERROR_CATALOG[code].status, [...(statuses.get(ERROR_CATALOG[code].status) ?? []), code]);
  };
  if (e.body) add("invalid_json", "validation_failed", "unsupported_media_type", "payload_too_large");
  if (e.query) add("invalid_query");
  if (!e.public) add("missing_api_key", "invalid_api_key", "invalid_session");
  if (!e.public && e.method !== "GET") add("cross_site_request");
  for (const schema of Object.values(e.params?.shape ?? {})) add(notFoundCodeOf(schema));
  if (e.method === "POST" && !e.public) add("idempotency_in_progress", "idempotency_key_reused");
  add("internal_error");
  return new Map([...statuses].map(([s, codes]) => [s, [...new Set(codes)]]));
}

const errorResponse = (description: string, code: ErrorCode) => ({
  description,
  content: {
    "application/json": {
      schema: { $ref: "#/components/schemas/Error" },
      examples: { [code]: { value: { error: { code, message: ERROR_CATALOG[code].message } } } },
    },
  },
});

/** The error responses of an endpoint's operation, keyed by status, plus the catalog's default. */
export function errorResponses(e: Endpoint): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, codes] of errorStatuses(e))
    out[String(status)] = errorResponse(`One of: ${codes.join(", ")}.`, codes[0]);
  // Endpoint-specific codes (insufficient_credits, column conflicts, rate_limited…) share the shape.
  out.default = errorResponse("Any other error of the catalog (docs/api.md lists every code).", "internal_error");
  return out;
}
