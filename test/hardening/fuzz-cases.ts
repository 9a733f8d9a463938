import fc from "fast-check";
import { ENDPOINTS } from "../../lib/http/schemas/index.ts";
import { REQUEST_EXAMPLES } from "../../lib/http/openapi-examples.ts";
import type { Endpoint } from "../../lib/http/endpoint.ts";

// Hostile and careless requests for every /api/v1 endpoint, derived from the endpoint registry:
// unserved methods, path ids that are malformed or another workspace's, missing and foreign keys,
// broken bodies and wrong-typed fields (fast-check, from a fixed seed so a failure replays), bad
// query values, and paths nobody serves. Each case may say which status it must get.

export interface FuzzCase {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The status it must get, when the class decides it; otherwise any 4xx or a success. */
  expect?: number;
  endpoint?: Endpoint;
}

/** Ids of real resources, by path parameter name: workspace A's (the key's) and workspace B's. */
export type Ids = Record<string, string>;

export const SEED = 20261125;
const JSON_TYPE = { "content-type": "application/json" };

const paramsOf = (e: Endpoint) => [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
const fill = (e: Endpoint, ids: Ids, override: Record<string, string> = {}) =>
  e.path.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? ids[name] ?? `${name}_none`);
const takesJson = (e: Endpoint) => (e.bodyType ?? "json").endsWith("json") && (e.body || e.parseBody);
const exampleOf = (e: Endpoint): Record<string, unknown> =>
  (REQUEST_EXAMPLES[`${e.method} ${e.path}`] as Record<string, unknown>) ?? {};
const keyHeaders = (key: string | null, more: Record<string, string> = {}) => ({
  ...(key ? { "x-api-key": key } : {}),
  ...more,
});

/**
 * Whether the baseline passes validation (a valid example body, no required query), so that a
 * wrong id must be what refuses it; otherwise validation may answer first, with a 400.
 */
const baselineValid = (e: Endpoint) =>
  (!takesJson(e) || (e.parseBody ?? e.body)!.safeParse(exampleOf(e)).success) &&
  (!e.query || e.query.safeParse({}).success);

/** A request to the endpoint that would pass, but for the one thing a case changes. */
function baseline(e: Endpoint, ids: Ids, key: string): Omit<FuzzCase, "kind"> {
  const body = takesJson(e) ? JSON.stringify(exampleOf(e)) : undefined;
  return { method: e.method, path: fill(e, ids), headers: keyHeaders(key, body ? JSON_TYPE : {}), body, endpoint: e };
}

const UNSERVED = ["GET", "POST", "PUT", "PATCH", "DELETE", "TRACE", "PROPFIND", "FOO"];

function methodCases(ids: Ids, key: string): FuzzCase[] {
  const paths = new Map<string, Endpoint[]>();
  for (const e of ENDPOINTS) paths.set(e.path, [...(paths.get(e.path) ?? []), e]);
  return [...paths.values()].flatMap((served) => {
    const path = fill(served[0], ids);
    const methods = served.map((e) => e.method as string);
    const unserved = UNSERVED.filter((m) => !methods.includes(m));
    return [
      // Node's parser itself refuses a method it does not know (FOO): 400 malformed_request.
      ...unserved.map((method) => ({
        kind: "unserved method",
        method,
        path,
        headers: keyHeaders(key),
        expect: method === "FOO" ? 400 : 405,
      })),
      { kind: "OPTIONS", method: "OPTIONS", path, headers: keyHeaders(key), expect: 204 },
    ];
  });
}

// Segments that name nothing: malformed, overlong, encoded tricks and injection attempts.
const BAD_IDS: [string, number | undefined][] = [
  ["nope_000000000000000000", 404],
  ["a".repeat(101), 404],
  ["%00", 404],
  ["%2e%2e", 404],
  ["%2F", 404],
  ["%ZZ", 400],
  ["%F0%9F", 400],
  ["a%20b", 404],
  ["%E2%80%AEdi", 404],
  ["'%20OR%201=1--", 404],
  ["$(id)", 404],
  ["%C3%B1", 404],
];

function pathCases(ids: Ids, foreign: Ids, key: string): FuzzCase[] {
  return ENDPOINTS.flatMap((e) =>
    paramsOf(e).flatMap((param) => {
      const base = baseline(e, ids, key);
      const variants: [string, number | undefined][] = [
        ...BAD_IDS,
        ...(foreign[param] ? ([[foreign[param], 404]] as [string, number][]) : []),
      ];
      return variants.map(([id, expect]) => ({
        ...base,
        kind: `path ${param}`,
        path: fill(e, ids, { [param]: id }),
        expect: expect === 404 && !baselineValid(e) ? undefined : expect,
      }));
    }),
  );
}

function rawPathCases(ids: Ids, key: string): FuzzCase[] {
  return ENDPOINTS.filter((e) => e.method === "GET").flatMap((e) => {
    const path = fill(e, ids);
    const [first, ...rest] = path.slice(1).split("/");
    return [`${path}/`, `/${first}//${rest.join("/")}`, `${path}/./`, `${path}/..`, `${path}/%2e%2e`, `${path}%00`].map(
      (p) => ({
        kind: "non-canonical path",
        method: "GET",
        path: p,
        headers: keyHeaders(key),
        expect: 404,
      }),
    );
  });
}

function authCases(ids: Ids, keyB: string): FuzzCase[] {
  const strangers: [string, Record<string, string>][] = [
    ["no key", {}],
    ["an unknown key", { "x-api-key": `cw_${"Z".repeat(40)}` }],
    ["a garbage key", { "x-api-key": "' OR 1=1 --" }],
    ["a bearer token that is no key", { authorization: "Bearer not-a-key" }],
  ];
  return ENDPOINTS.filter((e) => !e.public).flatMap((e) => {
    const base = baseline(e, ids, "");
    const cases: FuzzCase[] = strangers.map(([kind, h]) => ({
      ...base,
      kind,
      headers: { ...h, ...(base.body ? JSON_TYPE : {}) },
      expect: 401,
    }));
    // Workspace B's key on workspace A's resources finds nothing.
    if (paramsOf(e).length > 0)
      cases.push({
        ...base,
        kind: "another workspace's key",
        headers: keyHeaders(keyB, base.body ? JSON_TYPE : {}),
        expect: baselineValid(e) ? 404 : undefined,
      });
    return cases;
  });
}

const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const RAW_BODIES: [string, string | Buffer, Record<string, string>][] = [
  ["truncated JSON", "{", JSON_TYPE],
  ["JSON null", "null", JSON_TYPE],
  ["a JSON array", "[]", JSON_TYPE],
  ["a JSON number", "42", JSON_TYPE],
  ["a JSON string", '"x"', JSON_TYPE],
  ["JSON with a trailing comma", '{"a":1,}', JSON_TYPE],
  ["JSON nested 10,000 levels", `{"a":${deep(10_000)}}`, JSON_TYPE],
  ["a prototype-polluting body", '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}', JSON_TYPE],
  ["a NUL in the body", '{"name":"a\\u0000b","baseName":"a\\u0000b"}', JSON_TYPE],
  ["a lone surrogate", '{"name":"\\ud800","baseName":"\\udfff"}', JSON_TYPE],
  [
    "invalid UTF-8",
    Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    JSON_TYPE,
  ],
  ["JSON as text/plain", "{}", { "content-type": "text/plain" }],
  ["a form body", "a=1&b=2", { "content-type": "application/x-www-form-urlencoded" }],
  ["multipart without a boundary", "--x\r\n\r\n", { "content-type": "multipart/form-data" }],
  ["XML", "<a/>", { "content-type": "application/xml" }],
];

/** Values of the wrong kind for any field: fast-check's, plus the classics. */
const hostileValue = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double(),
  fc.constantFrom(
    null,
    true,
    [],
    {},
    -1,
    0,
    1e308,
    "",
    "x".repeat(200_000),
    [[[[[]]]]],
    { $gt: "" },
    "<script>alert(1)</script>",
  ),
  fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

function bodyCases(ids: Ids, key: string): FuzzCase[] {
  const sample = fc.sample(hostileValue, { seed: SEED, numRuns: 400 });
  let next = 0;
  return ENDPOINTS.filter(takesJson).flatMap((e) => {
    const base = baseline(e, ids, key);
    const raw = RAW_BODIES.map(([kind, body, h]) => ({ ...base, kind, body, headers: keyHeaders(key, h) }));
    const example = exampleOf(e);
    const fields =
      Object.keys(example).length > 0 ? Object.keys(example) : ["name", "rows", "columns", "messages", "url", "filter"];
    const typed = fields.flatMap((field) =>
      Array.from({ length: 3 }, () => ({
        ...base,
        kind: `wrong-typed ${field}`,
        body: JSON.stringify({ ...example, [field]: sample[next++ % sample.length] }),
      })),
    );
    return [...raw, ...typed];
  });
}

/** One body past the 20 MB request limit: refused while it is read, never parsed. */
function oversizedCase(ids: Ids, key: string): FuzzCase {
  const addRows = ENDPOINTS.find((e) => e.path.endsWith("/add-rows"))!;
  const cell = "x".repeat(1_000_000);
  const body = JSON.stringify({ rows: Array.from({ length: 21 }, () => ({ cells: { Company: cell } })) });
  return { ...baseline(addRows, ids, key), kind: "a body over 20 MB", body, expect: 413 };
}

const QUERY_VALUES = [
  "",
  "-1",
  "1e309",
  "NaN",
  "abc",
  "%ZZ",
  "%00",
  "x".repeat(10_000),
  "{",
  "[1",
  "%7B%22and%22%3A5%7D",
  "a&$0=b",
];

function queryCases(ids: Ids, key: string): FuzzCase[] {
  return ENDPOINTS.filter((e) => e.query).flatMap((e) => {
    const base = baseline(e, ids, key);
    return Object.keys(e.query!.shape).flatMap((name) =>
      QUERY_VALUES.map((v) => ({
        ...base,
        kind: `query ${name}`,
        path: `${base.path}?${name}=${v}&${name}=${v.slice(0, 3)}`,
      })),
    );
  });
}

function unknownPathCases(key: string): FuzzCase[] {
  const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((s) => s !== "." && s !== "..");
  const paths = fc
    .sample(fc.array(segment, { minLength: 1, maxLength: 4 }), { seed: SEED, numRuns: 40 })
    .map((parts) => `/api/v1/zz-${parts.join("/")}`);
  return [...paths, "/api", "/api/v2/bases", "/api/v1", "/api/v1/bases/%", "/api/%ff%fe"].map((path) => ({
    kind: "unknown path",
    method: "GET",
    path,
    headers: keyHeaders(key),
  }));
}

export function fuzzCases(ids: Ids, foreign: Ids, keyA: string, keyB: string): FuzzCase[] {
  return [
    ...methodCases(ids, keyA),
    ...pathCases(ids, foreign, keyA),
    ...rawPathCases(ids, keyA),
    ...authCases(ids, keyB),
    ...queryCases(ids, keyA),
    ...bodyCases(ids, keyA),
    oversizedCase(ids, keyA),
    ...unknownPathCases(keyA),
  ];
}
