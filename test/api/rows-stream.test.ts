import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { dispatch } from "../support/router.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows } from "./fixtures.ts";
import { EMITS_NOTHING, scenarios } from "./scenario.ts";

// Issue §5: Get Rows returns all rows, streamed, at 100,000 rows; limit/cursor page through them.

const N = 100_000;
let app: TestApp;
let big: TestBase;
let small: TestBase;
let smallRows: any[];

beforeAll(async () => {
  app = await createTestApp();
  big = await createBase(app, {
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Rank", type: "number" },
      {
        name: "Note",
        type: "long-text",
        isAiEnabled: true,
        inputColumns: ["Company"],
        columnOptions: { autoRun: "never" },
      },
    ],
    name: "Big",
  });
  // 100,000 rows in one statement: the test is about reading them, not about writing them.
  await app.rt.db.prisma.$executeRawUnsafe(
    `INSERT INTO rows (id, sheet_id, "values")
     SELECT 'sr_big' || lpad(g::text, 7, '0'), $1, jsonb_build_object($2::text, 'Company ' || g, $3::text, g::text)
     FROM generate_series(1, ${N}) AS g ORDER BY g`,
    big.structure.sheet.id,
    big.col.Company,
    big.col.Rank,
  );
  small = await createBase(app, { columns: [{ name: "N", type: "number" }], name: "Small" });
  smallRows = await addRows(
    app,
    small.baseId,
    Array.from({ length: 7 }, (_, i) => ({ N: i })),
  );
}, 120_000);
afterAll(() => app.close());

async function getRaw(path: string) {
  const res = await dispatch(new Request(`http://localhost${path}`, { headers: { "x-api-key": app.keyA } }));
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
  return { res, text: text + decoder.decode(), chunks };
}

describe("Get Rows at 100,000 rows", () => {
  it("streams every row, in insertion order, in the standard shape", async () => {
    const { res, text, chunks } = await getRaw(`/api/v1/bases/${big.baseId}/rows`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    // Streamed batch by batch rather than built whole in memory.
    expect(chunks).toBeGreaterThan(10);
    const body = JSON.parse(text);
    expect(Object.keys(body)).toEqual(["rows"]);
    expect(body.rows).toHaveLength(N);
    for (let i = 0; i < N; i++) {
      const r = body.rows[i];
      if (r.cells.Rank !== String(i + 1)) throw new Error(`row ${i} is out of order: ${JSON.stringify(r)}`);
    }
    expect(body.rows[0]).toEqual({ id: "sr_big0000001", cells: { Company: "Company 1", Rank: "1", Note: "" } });
    expect(body.rows[N - 1]).toEqual({
      id: `sr_big${String(N).padStart(7, "0")}`,
      cells: { Company: `Company ${N}`, Rank: String(N), Note: "" },
    });
  }, 120_000);

  it("pages through all of them with limit and nextCursor", async () => {
    let cursor: string | null = null;
    let seen = 0;
    let pages = 0;
    let last = 0;
    do {
      const q: string = cursor ? `?limit=10000&cursor=${encodeURIComponent(cursor)}` : "?limit=10000";
      const res = await app.api("GET", `/api/v1/bases/${big.baseId}/rows${q}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["nextCursor", "rows"]);
      for (const r of res.body.rows) {
        expect(Number(r.cells.Rank)).toBe(last + 1);
        last++;
      }
      seen += res.body.rows.length;
      cursor = res.body.nextCursor;
      pages++;
      expect(pages).toBeLessThan(20);
    } while (cursor);
    expect(seen).toBe(N);
  }, 120_000);

  it("expand=true streams too, with an entry for every column", async () => {
    const res = await app.api("GET", `/api/v1/bases/${big.baseId}/rows?expand=true&limit=3`);
    expect(res.body.rows[0].cells).toEqual({
      Company: { value: "Company 1" },
      Rank: { value: "1" },
      Note: { value: "", status: "idle", needsReview: false, verified: false },
    });
  });
});

describe("limit and cursor", () => {
  const base = () => `/api/v1/bases/${small.baseId}/rows`;

  it("limit returns the first page and a cursor to the next; the last page's nextCursor is null", async () => {
    const p1 = await app.api("GET", `${base()}?limit=3`);
    expect(p1.body.rows.map((r: any) => r.id)).toEqual(smallRows.slice(0, 3).map((r) => r.id));
    expect(p1.body.nextCursor).toEqual(expect.any(String));
    const p2 = await app.api("GET", `${base()}?limit=3&cursor=${p1.body.nextCursor}`);
    expect(p2.body.rows.map((r: any) => r.cells.N)).toEqual(["3", "4", "5"]);
    const p3 = await app.api("GET", `${base()}?limit=3&cursor=${p2.body.nextCursor}`);
    expect(p3.body).toEqual({ rows: [{ id: smallRows[6].id, cells: { N: "6" } }], nextCursor: null });
  });

  it("a cursor without a limit returns the rest (up to the default page size)", async () => {
    const p1 = await app.api("GET", `${base()}?limit=5`);
    const rest = await app.api("GET", `${base()}?cursor=${p1.body.nextCursor}`);
    expect(rest.body).toEqual({
      rows: smallRows.slice(5).map((r) => ({ id: r.id, cells: r.cells })),
      nextCursor: null,
    });
  });

  it("paging with expand gives expanded cells", async () => {
    const res = await app.api("GET", `${base()}?limit=1&expand=1`);
    expect(res.body.rows[0].cells).toEqual({ N: { value: "0" } });
  });

  it("a cursor stays valid when earlier rows are deleted", async () => {
    const g = await createBase(app, { columns: [{ name: "N", type: "number" }], name: "Cursor" });
    const rows = await addRows(app, g.baseId, [{ N: 1 }, { N: 2 }, { N: 3 }, { N: 4 }]);
    const p1 = await app.api("GET", `/api/v1/bases/${g.baseId}/rows?limit=2`);
    await app.api("POST", `/api/v1/bases/${g.baseId}/delete-rows`, { body: { rowIds: [rows[0].id, rows[1].id] } });
    const p2 = await app.api("GET", `/api/v1/bases/${g.baseId}/rows?limit=2&cursor=${p1.body.nextCursor}`);
    expect(p2.body.rows.map((r: any) => r.cells.N)).toEqual(["3", "4"]);
  });

  scenarios(
    () => app,
    [
      {
        name: "limit=0 is 400",
        method: "GET",
        path: () => `${base()}?limit=0`,
        status: 400,
        code: "invalid_query",
        ...EMITS_NOTHING,
      },
      {
        name: "limit=10001 is 400",
        method: "GET",
        path: () => `${base()}?limit=10001`,
        status: 400,
        code: "invalid_query",
        ...EMITS_NOTHING,
      },
      {
        name: "limit=abc is 400",
        method: "GET",
        path: () => `${base()}?limit=abc`,
        status: 400,
        code: "invalid_query",
        ...EMITS_NOTHING,
      },
      {
        name: "limit=1.5 is 400",
        method: "GET",
        path: () => `${base()}?limit=1.5`,
        status: 400,
        code: "invalid_query",
        ...EMITS_NOTHING,
      },
      {
        name: "a forged cursor is 400",
        method: "GET",
        path: () => `${base()}?limit=2&cursor=bm9wZQ`,
        status: 400,
        code: "invalid_cursor",
        ...EMITS_NOTHING,
      },
      {
        name: "a garbage cursor is 400",
        method: "GET",
        path: () => `${base()}?cursor=%%%`,
        status: 400,
        code: "invalid_cursor",
        ...EMITS_NOTHING,
      },
      {
        name: "limit=10000 is fine",
        method: "GET",
        path: () => `${base()}?limit=10000`,
        status: 200,
        bodyMatches: { nextCursor: null },
      },
    ],
  );
});
