import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { addRows } from "../api/fixtures.ts";
import { TextColumnFrames } from "../../lib/db/copy-out.ts";
import { prepareRowsQuery } from "../../lib/domain/rows/query.ts";
import type { RowsQuerySpec } from "../../lib/domain/rows/query.ts";
import { sqlLiteral } from "../../lib/domain/query/sql.ts";
import { exportColumns } from "../../lib/domain/export/columns.ts";
import { csvCopyChunks, csvLineChunks } from "../../lib/domain/export/csv-lines.ts";
import { jsonlCopyChunks, jsonlLineChunks } from "../../lib/domain/export/jsonl.ts";
import { pgAdminUrl, skipMessage } from "../scale/support.ts";

// On PostgreSQL an export's records stream from one COPY (copy-out.ts) instead of keyset pages:
// the two must give the same bytes, for awkward values, under filters, sorts and searches whose
// values COPY takes written into the statement rather than as parameters.

skipMessage("COPY export suite");

/** The binary COPY framing of one-text-column rows, as the server sends it. */
function binaryCopy(texts: (string | null)[]): Buffer {
  const parts = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)];
  for (const t of texts) {
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    const body = t === null ? Buffer.alloc(0) : Buffer.from(t);
    head.writeInt32BE(t === null ? -1 : body.length, 2);
    parts.push(head, body);
  }
  const end = Buffer.alloc(2);
  end.writeInt16BE(-1, 0);
  return Buffer.concat([...parts, end]);
}

describe("binary COPY framing", () => {
  const texts = ["a,b\r\n", "", null, "日本 😀\r\n", "x".repeat(300)];
  const wire = binaryCopy(texts);
  const expected = Buffer.from(texts.map((t) => t ?? "").join(""));

  it("gives the texts back whole, wherever the chunks split", () => {
    for (const size of [1, 2, 3, 5, 7, 19, 20, 64, wire.length]) {
      const frames = new TextColumnFrames();
      const out: Buffer[] = [];
      for (let i = 0; i < wire.length; i += size) out.push(frames.take(wire.subarray(i, i + size)));
      expect(Buffer.concat(out).equals(expected), `chunks of ${size}`).toBe(true);
      expect(frames.done).toBe(true);
    }
  });

  it("refuses what is not binary COPY output", () => {
    expect(() => new TextColumnFrames().take(Buffer.from("a\tb\n".repeat(10)))).toThrow(/not binary COPY/);
  });
});

describe.skipIf(!pgAdminUrl)("an export by COPY on PostgreSQL", () => {
  let app: TestApp;
  let base: TestBase;
  let workspaceId: string;
  const AWKWARD = [
    'He said "hi"',
    "a,b,c",
    "line\nbreak",
    "cr\rhere",
    "crlf\r\nthere",
    "=1+1",
    "+33 6 12",
    "-minus",
    "@handle",
    "\ttabbed",
    "back\\slash \\x01 \\n",
    "it's",
    "日本語 é 😀 \u2028",
    "",
    "\u0001=ctl",
    "plain text",
  ];

  beforeAll(async () => {
    app = await createTestApp();
    base = await createBase(app, {
      columns: [
        { name: "Name", isPrimary: true },
        { name: 'Notes, "quoted"', type: "long-text" },
        { name: "N", type: "number" },
        { name: "When", type: "date" },
        { name: "Done", type: "checkbox" },
        { name: "Kind", type: "select", columnOptions: { options: ["a'b", 'c"d', "e\\f", "g,h"] } },
      ],
    });
    workspaceId = (await app.rt.db.prisma.base.findUniqueOrThrow({ where: { id: base.baseId } })).workspaceId;
    const kinds = ["a'b", 'c"d', "e\\f", "g,h"];
    await addRows(
      app,
      base.baseId,
      AWKWARD.flatMap((text, i) => [
        {
          Name: text,
          'Notes, "quoted"': AWKWARD[(i + 3) % AWKWARD.length],
          N: String(i * 7 - 40),
          When: `2026-0${1 + (i % 9)}-1${i % 10}`,
          Done: i % 2 === 0,
          Kind: kinds[i % kinds.length],
        },
        { Name: `${text} again`, N: i % 3 === 0 ? "" : String(i / 4) },
      ]),
    );
    // Values the column types would not write today but a row may hold: JSON lists, numbers,
    // booleans and nulls, read as their JSON text (lists) or nothing (null).
    await app.rt.db.prisma.$executeRawUnsafe(
      `INSERT INTO rows (id, sheet_id, "values") VALUES
         ('sr_copy_list', $1, jsonb_build_object($2::text, '["x", "y,z"]'::jsonb, $3::text, 12.5)),
         ('sr_copy_null', $1, jsonb_build_object($2::text, 'null'::jsonb, $4::text, true))`,
      base.sheetId,
      base.col.Name,
      base.col.N,
      base.col.Done,
    );
  }, 120_000);
  afterAll(() => app?.close());

  /** A COPY's chunks, which the suite expects to get a slot. */
  const copy = (select: string) => {
    const chunks = app.rt.db.copyOut!(select);
    if (!chunks) throw new Error("no COPY slot free");
    return chunks;
  };

  const collect = async (chunks: AsyncIterable<string | Uint8Array>) => {
    const parts: Buffer[] = [];
    for await (const c of chunks) parts.push(typeof c === "string" ? Buffer.from(c) : Buffer.from(c));
    return Buffer.concat(parts);
  };

  const QUERIES: [string, RowsQuerySpec][] = [
    ["every row", {}],
    ["sorted by a number, descending", { sort: [{ column: "N", direction: "desc" }] }],
    ["sorted by a select", { sort: [{ column: "Kind", direction: "asc" }] }],
    [
      "filtered with quotes and backslashes in the values",
      {
        filter: {
          or: [
            { column: "Kind", op: "in", value: ["a'b", 'c"d', "e\\f"] },
            { column: "Name", op: "contains", value: "it's" },
            { column: "N", op: "gte", value: 10 },
          ],
        },
        sort: [{ column: "When", direction: "desc" }],
      },
    ],
    ["searched", { search: "again" }],
  ];

  for (const [name, spec] of QUERIES)
    for (const raw of [false, true])
      it(`gives the paged path's bytes: ${name}${raw ? ", raw" : ""}`, async () => {
        const query = await prepareRowsQuery(app.rt.db.prisma, workspaceId, base.baseId, spec);
        const columns = exportColumns(query.columns, { metadata: false, ids: true });
        const options = { bom: true, raw };
        const paged = await collect(csvLineChunks(query, columns, options, 5));
        const copied = await collect(csvCopyChunks(query, columns, options, app.rt.db.copyOut!));
        expect(paged.toString().split("\r\n").length).toBeGreaterThan(2);
        expect(copied.toString()).toBe(paged.toString());
        expect(copied.equals(paged)).toBe(true);
        const jsonl = await collect(jsonlLineChunks(query, columns, 5));
        expect((await collect(jsonlCopyChunks(query, columns, app.rt.db.copyOut!))).equals(jsonl)).toBe(true);
      });

  it("writes parameters as literals that PostgreSQL reads back as the same values", async () => {
    const texts = ["it's", "back\\slash", "\\'", '"', "{a,b}", "NULL", "日本 😀", "", "$1"];
    const [row] = await app.rt.db.read<{ t: string[]; a: string[]; n: string }>(
      `SELECT ARRAY[${texts.map((t) => `${sqlLiteral(t)}::text`).join(", ")}] AS t,
              ${sqlLiteral(texts)}::text[] AS a, ${sqlLiteral(12.5)}::numeric::text AS n`,
      [],
    );
    expect(row.t).toEqual(texts);
    expect(row.a).toEqual(texts);
    expect(row.n).toBe("12.5");
    const [nulls] = await app.rt.db.read<{ a: (string | null)[] }>(
      `SELECT ${sqlLiteral(["x", null])}::text[] AS a`,
      [],
    );
    expect(nulls.a).toEqual(["x", null]);
  });

  it("cancels the statement when the reader stops, and hands its connection back", async () => {
    const pool = app.rt.db.pool!;
    // Enough output that the server is still writing when the reader stops.
    const select = `SELECT repeat('x', 1000) || g FROM generate_series(1, 200000) AS g`;
    const chunks = copy(select);
    expect((await chunks.next()).done).toBe(false);
    await chunks.return(undefined);
    const running = await app.rt.db.read<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (SELECT repeat%' AND state = 'active'`,
      [],
    );
    expect(running[0].n).toBe(0);
    expect(pool.totalCount - pool.idleCount).toBe(0);
    const again = await collect(copy(`SELECT 'ok' || g FROM generate_series(1, 3) AS g`));
    expect(again.toString()).toBe("ok1ok2ok3");
  });

  it("holds at most half the pool, and an export beyond that reads pages, to the same bytes", async () => {
    const query = await prepareRowsQuery(app.rt.db.prisma, workspaceId, base.baseId, {});
    const columns = exportColumns(query.columns, { metadata: false, ids: true });
    const options = { bom: false, raw: false };
    const expected = await collect(csvLineChunks(query, columns, options, 5));
    // The suites' pool has 5 connections: two COPYs hold their share.
    const held = [copy(`SELECT 'a'`), copy(`SELECT 'b'`)];
    expect(app.rt.db.copyOut!(`SELECT 'c'`)).toBeUndefined();
    expect((await collect(csvCopyChunks(query, columns, options, app.rt.db.copyOut!))).equals(expected)).toBe(true);
    expect((await collect(held[0])).toString()).toBe("a");
    expect((await collect(held[1])).toString()).toBe("b");
    expect((await collect(copy(`SELECT 'c'`))).toString()).toBe("c");
  });

  it("reports a failing statement as an error", async () => {
    await expect(collect(copy(`SELECT 1 / (g - 2) || '' FROM generate_series(1, 3) AS g`))).rejects.toThrow(
      /division by zero/,
    );
    const after = await collect(copy(`SELECT 'still ' || 'fine'`));
    expect(after.toString()).toBe("still fine");
  });
});
