import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { dispatch } from "../support/router.ts";
import { csvRows, jsonlRows, xlsxRows } from "./helpers.ts";

// A larger base: every row comes out once, in order, across many keyset pages and many chunks;
// a reader that stops early ends the export without reading the rest.

const N = 12_345;
let app: TestApp;
let base: TestBase;

beforeAll(async () => {
  app = await createTestApp();
  base = await createBase(app, {
    name: "Many",
    columns: [
      { name: "Name", isPrimary: true },
      { name: "N", type: "number" },
    ],
  });
  await app.rt.db.prisma.$executeRawUnsafe(
    `INSERT INTO rows (id, sheet_id, "values")
     SELECT 'sr_many' || lpad(g::text, 7, '0'), $1, jsonb_build_object($2::text, 'Name ' || g, $3::text, g::text)
     FROM generate_series(1, ${N}) AS g ORDER BY g`,
    base.sheetId,
    base.col.Name,
    base.col.N,
  );
}, 120_000);
afterAll(() => app.close());

const open = (query: string) =>
  dispatch(
    new Request(`http://localhost/api/v1/bases/${base.baseId}/export?${query}`, { headers: { "x-api-key": app.keyA } }),
  );

async function readAll(res: Response) {
  const parts: Uint8Array[] = [];
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe("a larger export", () => {
  it("streams every row of a CSV once, in order, in many chunks", async () => {
    const { bytes, chunks } = await readAll(await open("format=csv"));
    expect(chunks).toBeGreaterThanOrEqual(3);
    const rows = csvRows(bytes);
    expect(rows).toHaveLength(N + 1);
    rows.slice(1).forEach((r, i) => {
      if (r[1] !== String(i + 1)) throw new Error(`row ${i} out of order: ${r}`);
    });
  }, 60_000);

  it("pages in sort order", async () => {
    const rows = jsonlRows((await readAll(await open("format=jsonl&sort=-N"))).bytes);
    expect(rows).toHaveLength(N);
    expect(rows[0]).toEqual({ Name: `Name ${N}`, N: String(N) });
    expect(rows[N - 1]).toEqual({ Name: "Name 1", N: "1" });
  }, 60_000);

  it("writes every row to XLSX", async () => {
    const { rows } = await xlsxRows((await readAll(await open("format=xlsx"))).bytes);
    expect(rows).toHaveLength(N + 1);
    expect(rows[N]).toEqual([`Name ${N}`, N]);
  }, 60_000);

  it.each(["csv", "xlsx", "jsonl"])(
    "stops when a %s reader cancels, quietly, and the base still answers",
    async (format) => {
      // The chunk a pull was awaiting when the reader cancelled must not be pushed into the closed stream.
      const logged: unknown[][] = [];
      const error = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      try {
        const res = await open(`format=${format}`);
        const reader = res.body!.getReader();
        await reader.read();
        await reader.cancel();
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        console.error = error;
      }
      expect(logged.map((args) => args.map(String).join(" "))).toEqual([]);
      const next = await app.api("GET", `/api/v1/bases/${base.baseId}/rows?limit=1`);
      expect(next.status).toBe(200);
    },
    60_000,
  );
});
