import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { dispatch } from "../support/router.ts";
import { COMPANIES, rowCount } from "./fixtures.ts";

// Input PostgreSQL cannot store, or that would hurt whatever walks it later, is refused with a
// 400 that says where it is, before anything is written.

let app: TestApp;
let baseId: string;

beforeAll(async () => {
  app = await createTestApp();
  baseId = (await createBase(app, COMPANIES)).baseId;
});
afterAll(() => app.close());

const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

describe("text that cannot be stored", () => {
  it.each([
    ["a NUL character", "Acme\u0000Corp", /NUL/],
    ["a lone high surrogate", "Acme \ud800", /unpaired UTF-16 surrogate/],
    ["a lone low surrogate", "\udc00 Acme", /unpaired UTF-16 surrogate/],
  ])("refuses %s in a cell, naming the row and column, and writes nothing", async (_what, text, message) => {
    const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: "Fine" } }, { cells: { Company: text } }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.message).toMatch(message);
    expect(res.body.error.details.issues).toEqual([
      { path: "rows.1.cells.Company", message: expect.stringMatching(message) },
    ]);
    expect(await rowCount(app, baseId)).toBe(0);
  });

  it("refuses a bad key as well as a bad value", async () => {
    const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: { rows: [{ cells: { "Comp\u0000any": "x" } }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues[0].path).toBe("rows.0.cells.Comp?any");
  });

  it("accepts a well-formed surrogate pair (an emoji)", async () => {
    const res = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: { rows: [{ cells: { Company: "Acme 🚀" } }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.rows[0].cells.Company).toBe("Acme 🚀");
  });
});

describe("nesting", () => {
  it("refuses JSON nested 10,000 levels deep in columnOptions, and creates no column", async () => {
    const raw = `{"name":"Deep","columnOptions":{"x":${deep(10_000)}}}`;
    const res = await app.api("POST", `/api/v1/bases/${baseId}/columns`, {
      raw,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/nested more than 32 levels/);
    const structure = await app.api("GET", `/api/v1/bases/${baseId}/base-structure`);
    expect(structure.body.sheetColumns.map((c: { name: string }) => c.name)).not.toContain("Deep");
  });
});

describe("friction", () => {
  it("takes expand=True, as Python sends it", async () => {
    const res = await app.api("GET", `/api/v1/bases/${baseId}/rows?expand=True`);
    expect(res.status).toBe(200);
    expect((await app.api("GET", `/api/v1/bases/${baseId}/rows?expand=maybe`)).status).toBe(400);
  });

  it("keeps a long number exact", async () => {
    const { baseId: id } = await createBase(app, {
      columns: [
        { name: "Id", isPrimary: true },
        { name: "N", type: "number" },
      ],
    });
    const res = await app.api("POST", `/api/v1/bases/${id}/add-rows`, {
      body: { rows: [{ cells: { Id: "a", N: "123456789012345678" } }] },
    });
    expect(res.body.rows[0].cells.N).toBe("123456789012345678");
  });

  it("treats column names that differ only in Unicode normalisation as the same name", async () => {
    const nfc = "Caf\u00e9";
    const nfd = "Cafe\u0301";
    const { baseId: id } = await createBase(app, { columns: [{ name: "Id", isPrimary: true }, { name: nfc }] });
    const clash = await app.api("POST", `/api/v1/bases/${id}/columns`, { body: { name: nfd.toUpperCase() } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe("duplicate_column_name");
    const res = await app.api("POST", `/api/v1/bases/${id}/add-rows`, {
      body: { rows: [{ cells: { Id: "a", [nfd]: "by the other form" } }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.rows[0].cells[nfc]).toBe("by the other form");
  });
});

describe("uploads", () => {
  const post = (body: BodyInit, contentType?: string) =>
    dispatch(
      new Request(`http://localhost/api/v1/bases/${baseId}/files`, {
        method: "POST",
        headers: { "x-api-key": app.keyA, ...(contentType ? { "content-type": contentType } : {}) },
        body,
      }),
    );

  it("refuses a multipart body without a boundary with a 400, not a 500", async () => {
    const res = await post("--x\r\n", "multipart/form-data");
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("validation_failed");
  });

  it("keeps a UTF-8 file name, and reads filename* (RFC 5987)", async () => {
    const form = new FormData();
    form.set("file", new Blob(["hello"], { type: "text/plain" }), "Größe – 日本.txt");
    const plain = await post(form);
    expect(plain.status).toBe(201);
    expect((await plain.json()).name).toBe("Größe – 日本.txt");
    const b = "----cwboundary";
    const body = `--${b}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.txt\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${b}--\r\n`;
    const star = await post(body, `multipart/form-data; boundary=${b}`);
    expect(star.status).toBe(201);
    expect((await star.json()).name).toBe("naïve résumé.txt");
  });
});
