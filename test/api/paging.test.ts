import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { topUp } from "../../lib/credits/ledger.ts";
import { addRows } from "./fixtures.ts";

// Every paged list says "no more" on its last page, also when the total is an exact multiple of
// the page size: a client that follows nextCursor never fetches an empty page.

let app: TestApp;
let baseId: string;
const ROWS = 6;

beforeAll(async () => {
  app = await createTestApp();
  ({ baseId } = await createBase(app, { columns: [{ name: "N", type: "number", isPrimary: true }] }));
  for (let i = 0; i < ROWS; i++) await addRows(app, baseId, [{ N: i }]);
  for (let i = 0; i < ROWS; i++) await topUp(app.rt.db.prisma, app.workspaceA, 10);
});
afterAll(() => app.close());

type Page = { items: unknown[]; next: string | null };

const lists: [string, (limit: number, cursor: string | null) => Promise<Page>][] = [
  [
    "Get Rows",
    async (limit, cursor) => {
      const res = await app.api(
        "GET",
        `/api/v1/bases/${baseId}/rows?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
      );
      return { items: res.body.rows, next: res.body.nextCursor };
    },
  ],
  [
    "Query Rows",
    async (limit, cursor) => {
      const res = await app.api("POST", `/api/v1/bases/${baseId}/rows/query`, {
        body: { limit, sort: [{ column: "N", direction: "desc" }], ...(cursor ? { cursor } : {}) },
      });
      return { items: res.body.rows, next: res.body.nextCursor };
    },
  ],
  [
    "the credit ledger",
    async (limit, cursor) => {
      const res = await app.api("GET", `/api/v1/credits?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      return { items: res.body.entries, next: res.body.nextCursor };
    },
  ],
];

async function walk(list: (limit: number, cursor: string | null) => Promise<Page>, limit: number) {
  const pages: unknown[][] = [];
  let cursor: string | null = null;
  do {
    const page = await list(limit, cursor);
    pages.push(page.items);
    cursor = page.next;
  } while (cursor && pages.length < 100);
  return pages;
}

describe("the last page", () => {
  it.each(lists)("of %s has nextCursor null, at exact multiples of the page size too", async (_name, list) => {
    const total = (await walk(list, 100)).flat().length;
    expect(total).toBeGreaterThanOrEqual(ROWS);
    const divisors = [1, 2, 3, total].filter((d) => total % d === 0);
    expect(divisors.length).toBeGreaterThanOrEqual(2);
    for (const size of divisors) {
      const pages = await walk(list, size);
      expect(
        pages.map((p) => p.length),
        `page size ${size}`,
      ).toEqual(Array(total / size).fill(size));
    }
    // And a size that leaves a short last page.
    const size = total - 1;
    expect((await walk(list, size)).map((p) => p.length)).toEqual([size, 1]);
  });
});

// Get Rows and Query Rows jump to a position with offset (the grid does, on a large base).
const positioned: [
  string,
  (q: {
    limit: number;
    offset?: number;
    cursor?: string | null;
  }) => Promise<{ rows: { id: string }[]; nextCursor: string | null }>,
][] = [
  [
    "Get Rows",
    async ({ limit, offset, cursor }) => {
      const res = await app.api(
        "GET",
        `/api/v1/bases/${baseId}/rows?limit=${limit}${offset !== undefined ? `&offset=${offset}` : ""}${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status).toBe(200);
      return res.body;
    },
  ],
  [
    "Query Rows",
    async (q) => {
      const res = await app.api("POST", `/api/v1/bases/${baseId}/rows/query`, {
        body: { sort: [{ column: "N", direction: "desc" }], ...q },
      });
      expect(res.status).toBe(200);
      return res.body;
    },
  ],
  [
    // As the grid reads: each row with its cells' states, picked before they are read.
    "Query Rows, expanded",
    async (q) => {
      const res = await app.api("POST", `/api/v1/bases/${baseId}/rows/query`, {
        body: { sort: [{ column: "N", direction: "desc" }], expand: true, ...q },
      });
      expect(res.status).toBe(200);
      return res.body;
    },
  ],
];

describe("offset", () => {
  it.each(positioned)("%s reads the rows at a position, and its nextCursor goes on from there", async (_name, read) => {
    const all = (await read({ limit: 100 })).rows.map((r) => r.id);
    expect(all).toHaveLength(ROWS);
    const mid = await read({ limit: 2, offset: 3 });
    expect(mid.rows.map((r) => r.id)).toEqual(all.slice(3, 5));
    expect((await read({ limit: 10, cursor: mid.nextCursor })).rows.map((r) => r.id)).toEqual(all.slice(5));
    // After a cursor, the offset counts from the cursor's row.
    const first = await read({ limit: 1 });
    expect((await read({ limit: 2, offset: 2, cursor: first.nextCursor })).rows.map((r) => r.id)).toEqual(
      all.slice(3, 5),
    );
    const last = await read({ limit: 2, offset: ROWS - 2 });
    expect(last.rows.map((r) => r.id)).toEqual(all.slice(-2));
    expect(last.nextCursor).toBeNull();
    expect(await read({ limit: 5, offset: ROWS + 10 })).toMatchObject({ rows: [], nextCursor: null });
  });

  it.each([["-1"], ["1.5"], ["x"], ["10000001"]])(
    "offset=%s is 400 invalid_query on Get Rows and validation_failed on Query Rows",
    async (offset) => {
      const get = await app.api("GET", `/api/v1/bases/${baseId}/rows?limit=2&offset=${offset}`);
      expect(get.status).toBe(400);
      expect(get.body.error.code).toBe("invalid_query");
      const post = await app.api("POST", `/api/v1/bases/${baseId}/rows/query`, {
        body: { limit: 2, offset: Number(offset) },
      });
      expect(post.status).toBe(400);
      expect(post.body.error.code).toBe("validation_failed");
    },
  );
});
