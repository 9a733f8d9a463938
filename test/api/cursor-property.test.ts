import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createTestApp, type ApiResult, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { addRows } from "./fixtures.ts";

// Crafted cursors: a cursor is base64url JSON a client can rewrite. Whatever it holds (keys that
// do not fit the sort's column types, the wrong number of keys, a tiebreaker that is no bigint),
// the answer is a page or 400 invalid_cursor, never a 500 and never a database error. Cursors the
// API returned keep working on every sort.

let app: TestApp;
let baseId: string;
const SORTS: { column: string; direction?: "asc" | "desc" }[][] = [
  [{ column: "Count" }],
  [{ column: "Count", direction: "desc" }],
  [{ column: "Day" }],
  [{ column: "Stage" }],
  [{ column: "Name" }],
  [{ column: "Flag" }],
  [{ column: "Stage", direction: "desc" }, { column: "Count" }, { column: "Day", direction: "desc" }],
];

beforeAll(async () => {
  app = await createTestApp();
  ({ baseId } = await createBase(app, {
    columns: [
      { name: "Name", isPrimary: true },
      { name: "Count", type: "number" },
      { name: "Day", type: "date" },
      { name: "Stage", type: "select", columnOptions: { options: ["Seed", "Series A"] } },
      { name: "Flag", type: "checkbox" },
    ],
  }));
  await addRows(app, baseId, [
    { Name: "a", Count: 3, Day: "2024-01-02", Stage: "Seed", Flag: true },
    { Name: "b", Count: -2.5, Day: "2024-01-02T10:30:00Z", Stage: "Series A", Flag: false },
    { Name: "c", Count: "", Day: "", Stage: "" },
    { Name: "d", Count: 1e21, Day: "1999-12-31", Stage: "Seed" },
    { Name: "e", Count: 0.125, Day: "2030-06-01T00:00:00.5Z", Stage: "Series A", Flag: true },
  ]);
});
afterAll(() => app.close());

const query = (body: object) => app.api("POST", `/api/v1/bases/${baseId}/rows/query`, { body });
const encode = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const decode = (c: string) =>
  JSON.parse(Buffer.from(c, "base64url").toString()) as { f: string; k: (string | null)[]; s: string };
/** A real cursor of this sort: after its first row. */
const cursorOf = async (sort: object[]) => decode((await query({ sort, limit: 1 })).body.nextCursor);

function expectPageOrInvalidCursor(res: ApiResult, what: unknown) {
  const ok = res.status === 200 || (res.status === 400 && res.body?.error?.code === "invalid_cursor");
  expect(ok, `${res.status} ${res.text} for ${JSON.stringify(what)}`).toBe(true);
}

describe("crafted cursors", () => {
  it("cursors the API returned walk every sort to its end", async () => {
    for (const sort of SORTS) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: ApiResult = await query({ sort, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(res.status, res.text).toBe(200);
        seen.push(...res.body.rows.map((r: { id: string }) => r.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(new Set(seen).size, JSON.stringify(sort)).toBe(5);
    }
  });

  it.each([
    ["a non-numeric key on a number sort", [{ column: "Count" }], (c: any) => ({ ...c, k: ["abc"] })],
    ["a number in exponent form on a number sort", [{ column: "Count" }], (c: any) => ({ ...c, k: ["1e5"] })],
    ["a bad date on a date sort", [{ column: "Day" }], (c: any) => ({ ...c, k: ["2024-02-31"] })],
    [
      "a date that is not the normal form",
      [{ column: "Day" }],
      (c: any) => ({ ...c, k: ["2024-01-02T10:30:00+02:00"] }),
    ],
    ["a non-integer key on a select sort", [{ column: "Stage" }], (c: any) => ({ ...c, k: ["first"] })],
    ["an integer past int on a select sort", [{ column: "Stage" }], (c: any) => ({ ...c, k: ["99999999999"] })],
    ["one key too many", [{ column: "Count" }], (c: any) => ({ ...c, k: [...c.k, "1"] })],
    ["no keys", [{ column: "Count" }], (c: any) => ({ ...c, k: [] })],
    ["a number, not its text", [{ column: "Count" }], (c: any) => ({ ...c, k: [3] })],
    ["a tiebreaker past bigint", [{ column: "Count" }], (c: any) => ({ ...c, s: "9999999999999999999" })],
    ["a negative tiebreaker", [{ column: "Count" }], (c: any) => ({ ...c, s: "-1" })],
    ["a tiebreaker as a number", [{ column: "Count" }], (c: any) => ({ ...c, s: 3 })],
    ["another sort's cursor", [{ column: "Count" }], (c: any) => ({ ...c, f: "nope" })],
  ])("%s is 400 invalid_cursor", async (_, sort, craft) => {
    const cursor = encode(craft(await cursorOf(sort)));
    const res = await query({ sort, limit: 2, cursor });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("invalid_cursor");
    const get = await app.api(
      "GET",
      `/api/v1/bases/${baseId}/rows?limit=2&sort=${encodeURIComponent(sort.map((k: any) => k.column).join(","))}&cursor=${cursor}`,
    );
    expect(get.status, get.text).toBe(400);
    expect(get.body.error.code).toBe("invalid_cursor");
  });

  it("any rewrite of a real cursor's keys, tiebreaker or shape answers a page or 400 invalid_cursor", async () => {
    const real = await Promise.all(SORTS.map((sort) => cursorOf(sort)));
    const key = fc.oneof(
      fc.constant(null),
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^-?\d{1,25}(\.\d{1,5})?$/),
      fc.stringMatching(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{3})?Z)?$/),
      fc.integer().map(String),
      fc.double().map(String),
      fc.integer(),
      fc.boolean(),
      fc.constantFrom("NaN", "Infinity", "-0", "1e400", "0x10", " 1", "1 ", "", "\u0000", "2024-13-45", "+1"),
    );
    const seq = fc.oneof(
      fc.bigInt({ min: -10n, max: 2n ** 64n }).map(String),
      fc.string({ maxLength: 22 }),
      fc.integer(),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat(SORTS.length - 1),
        fc.array(key, { maxLength: 6 }),
        seq,
        fc.boolean(),
        async (i, keys, s, keepArity) => {
          const base = real[i];
          const k = keepArity ? base.k.map((old, j) => (j < keys.length ? keys[j] : old)) : keys;
          const crafted = { f: base.f, k, s };
          const res = await query({ sort: SORTS[i], limit: 2, cursor: encode(crafted) });
          expectPageOrInvalidCursor(res, crafted);
        },
      ),
      { numRuns: 300, seed: Number(process.env.PROPERTY_SEED ?? 20261128) },
    );
  }, 120_000);

  it("Get Rows' insertion-order cursor past bigint's range is 400 invalid_cursor", async () => {
    for (const seq of ["9223372036854775808", "9999999999999999999"]) {
      const res = await app.api(
        "GET",
        `/api/v1/bases/${baseId}/rows?limit=2&cursor=${Buffer.from(`s:${seq}`).toString("base64url")}`,
      );
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe("invalid_cursor");
    }
    const last = await app.api(
      "GET",
      `/api/v1/bases/${baseId}/rows?limit=2&cursor=${Buffer.from("s:9223372036854775807").toString("base64url")}`,
    );
    expect(last.status, last.text).toBe(200);
    expect(last.body.rows).toEqual([]);
  });

  it("bytes that are no cursor at all answer 400 invalid_cursor", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200 }), async (text) => {
        const res = await query({ sort: SORTS[0], limit: 2, cursor: text });
        expectPageOrInvalidCursor(res, text);
        expect(res.status).toBe(400);
      }),
      { numRuns: 100, seed: Number(process.env.PROPERTY_SEED ?? 20261128) },
    );
  }, 60_000);
});
