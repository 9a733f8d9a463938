import { expect } from "vitest";
import ExcelJS from "exceljs";
import type { TestApp } from "../support/app.ts";
import { dispatch } from "../support/router.ts";
import { waitFor } from "../support/wait.ts";

// Uploads a file to the import endpoint as a client would (the body, or multipart), and waits
// for the background worker to finish it.

export const CSV = "text/csv";
export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const NDJSON = "application/x-ndjson";

export interface UploadOptions {
  contentType?: string;
  query?: string;
  key?: string;
  multipart?: { name: string };
}

export async function upload(app: TestApp, baseId: string, body: string | Buffer, opts: UploadOptions = {}) {
  const headers: Record<string, string> = { "x-api-key": opts.key ?? app.keyA };
  let payload: BodyInit;
  if (opts.multipart) {
    const form = new FormData();
    form.set(
      "file",
      new Blob([typeof body === "string" ? body : new Uint8Array(body)], { type: opts.contentType ?? CSV }),
      opts.multipart.name,
    );
    payload = form;
  } else {
    headers["content-type"] = opts.contentType ?? CSV;
    payload = typeof body === "string" ? body : new Uint8Array(body);
  }
  const res = await dispatch(
    new Request(`http://localhost/api/v1/bases/${baseId}/imports${opts.query ?? ""}`, {
      method: "POST",
      headers,
      body: payload,
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** Uploads and waits for the import to end; expects it to be accepted. */
export async function importFile(app: TestApp, baseId: string, body: string | Buffer, opts: UploadOptions = {}) {
  const res = await upload(app, baseId, body, opts);
  expect(res.status, res.text).toBe(202);
  expect(res.body.id).toMatch(/^imp_/);
  expect(res.body.status).toBe("queued");
  return waitForImport(app, baseId, res.body.id);
}

export async function waitForImport(app: TestApp, baseId: string, id: string, key = app.keyA) {
  return waitFor(
    async () => {
      const res = await app.api("GET", `/api/v1/bases/${baseId}/imports/${id}`, { key });
      expect(res.status, res.text).toBe(200);
      return res.body.status === "done" || res.body.status === "failed" ? res.body : null;
    },
    `import ${id} to end`,
    60_000,
  );
}

export async function xlsxOf(sheets: { name: string; rows: unknown[][] }[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) wb.addWorksheet(s.name).addRows(s.rows);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function allRows(app: TestApp, baseId: string): Promise<Record<string, string>[]> {
  const res = await app.api("GET", `/api/v1/bases/${baseId}/rows`);
  expect(res.status, res.text).toBe(200);
  return res.body.rows.map((r: { cells: Record<string, string> }) => r.cells);
}

export async function columnsOf(
  app: TestApp,
  baseId: string,
): Promise<{ name: string; type: string; isPrimary: boolean; columnOptions: Record<string, unknown> }[]> {
  const res = await app.api("GET", `/api/v1/bases/${baseId}/base-structure`);
  expect(res.status, res.text).toBe(200);
  return res.body.sheetColumns;
}
