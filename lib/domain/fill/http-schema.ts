import { z } from "zod";

// An HTTP request the column sends for each row, and how its answer becomes the cell's value.
// Used by HTTP columns and by the HTTP steps of a waterfall.

export const HTTP_LIMITS = {
  urlChars: 2_048,
  headers: 20,
  headerChars: 2_000,
  bodyChars: 20_000,
  expressionChars: 2_000,
  maxRetries: 5,
  maxTimeoutMs: 30_000,
  defaultTimeoutMs: 10_000,
  maxCacheTtlSeconds: 30 * 86_400,
  defaultCacheTtlSeconds: 86_400,
  maxCredits: 1_000,
  outputs: 10,
} as const;

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH"] as const;

const expression = (what: string) => z.string().min(1).max(HTTP_LIMITS.expressionChars).describe(what);

export const httpRequestSchema = z
  .strictObject({
    method: z
      .enum(HTTP_METHODS)
      .default("GET")
      .describe(`The method: ${HTTP_METHODS.join(", ")}. Default GET.`),
    url: z
      .string()
      .min(1)
      .max(HTTP_LIMITS.urlChars)
      .describe(
        "The http(s) URL. {{Column name}} is replaced by the row's value, URL-encoded; {{secret:NAME}} by a workspace secret.",
      ),
    headers: z
      .record(z.string().min(1).max(100), z.string().max(HTTP_LIMITS.headerChars))
      .optional()
      .describe('Request headers; values may hold placeholders, e.g. { "Authorization": "Bearer {{secret:HUNTER}}" }.'),
    body: z
      .unknown()
      .optional()
      .describe(
        "A JSON body (POST, PUT, PATCH). Placeholders in its strings are replaced by the row's values, as JSON text.",
      ),
  })
  .describe("The request sent for each row.");

export const notFoundSchema = z
  .strictObject({
    statuses: z
      .array(z.number().int().min(400).max(599))
      .max(20)
      .optional()
      .describe("Answer statuses that mean no data for this row. Default [404]."),
    whenEmpty: z
      .boolean()
      .optional()
      .describe('true (the default): an empty extraction (null, "", []) means no data rather than an error.'),
    when: expression("A JSONata condition on the answer's JSON that means no data, e.g. data.email = null.").optional(),
  })
  .describe("When an answer means the provider has no data for this row: the cell ends not_found, not error.");

export const httpCallFields = {
  request: httpRequestSchema,
  extract: expression(
    'A JSONata expression mapping the answer\'s JSON to the value, e.g. data.email or $string(employees). The whole answer is "$".',
  ),
  notFound: notFoundSchema.optional(),
  retries: z
    .number()
    .int()
    .min(0)
    .max(HTTP_LIMITS.maxRetries)
    .optional()
    .describe("Retries after 429, 5xx or a network error, with backoff that honours Retry-After. Default 2."),
  timeoutMs: z
    .number()
    .int()
    .min(100)
    .max(HTTP_LIMITS.maxTimeoutMs)
    .optional()
    .describe(`Time allowed for one call, in ms. Default ${HTTP_LIMITS.defaultTimeoutMs}.`),
  cacheTtlSeconds: z
    .number()
    .int()
    .min(0)
    .max(HTTP_LIMITS.maxCacheTtlSeconds)
    .optional()
    .describe("How long an answer is reused for the same resolved request; 0 turns the cache off. Default one day."),
  credits: z
    .strictObject({
      found: z
        .number()
        .int()
        .min(0)
        .max(HTTP_LIMITS.maxCredits)
        .optional()
        .describe("Credits for a found value. Default 1."),
      notFound: z
        .number()
        .int()
        .min(0)
        .max(HTTP_LIMITS.maxCredits)
        .optional()
        .describe("Credits for a miss. Default 0."),
    })
    .optional()
    .describe("What a call costs in credits; a cached answer costs nothing."),
  rateLimit: z
    .strictObject({
      perMinute: z.number().int().min(1).max(100_000).optional().describe("Calls a minute to this host. Default 600."),
      concurrency: z.number().int().min(1).max(100).optional().describe("Calls in flight to this host. Default 10."),
    })
    .optional()
    .describe("Limits per host, shared by every worker process."),
};

export const httpCallSchema = z.strictObject(httpCallFields);
export type HttpCall = z.infer<typeof httpCallSchema>;
