"use client";
import { ApiError, basePath } from "../data/api";

// The import endpoints from the browser: the file goes as the request body, same-origin with the
// session cookie, as the API client sends JSON.

export interface ImportOptionsInput {
  mergeOn: string[];
  runAi: boolean;
  createColumns: boolean;
}

export interface ImportPreview {
  format: "csv" | "xlsx" | "jsonl";
  linesTotal: number;
  fields: { name: string; action: "match" | "create" | "ignore"; column: string | null; type: string | null }[];
  rows: string[][];
  aiColumns: string[];
  aiCells: number;
}

export interface ImportJob {
  id: string;
  status: "queued" | "running" | "done" | "failed";
  linesTotal: number | null;
  rowsRead: number;
  rowsCreated: number;
  rowsUpdated: number;
  rowsSkipped: number;
  createdColumns: string[];
  ignoredColumns: string[];
  errors: { line: number; column: string | null; code: string; message: string }[];
  runId: string | null;
}

const query = (o: ImportOptionsInput) => {
  const q = new URLSearchParams();
  for (const m of o.mergeOn) q.append("mergeOn", m);
  if (!o.runAi) q.set("runAi", "false");
  if (!o.createColumns) q.set("createColumns", "false");
  return q.toString();
};

async function send<T>(url: string, file: File): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    body: file,
    headers: {
      "content-type": file.type || "application/octet-stream",
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    },
    credentials: "same-origin",
  });
  const data = (await res.json().catch(() => null)) as
    | (T & { error?: { code: string; message: string; details?: unknown } })
    | null;
  if (!res.ok)
    throw new ApiError(
      res.status,
      data?.error?.code ?? "http_error",
      data?.error?.message ?? `Request failed (${res.status}).`,
      data?.error?.details,
    );
  return data as T;
}

export const previewImport = (baseId: string, file: File, o: ImportOptionsInput) =>
  send<ImportPreview>(`${basePath(baseId)}/imports/preview?${query(o)}`, file);
export const startImport = (baseId: string, file: File, o: ImportOptionsInput) =>
  send<ImportJob>(`${basePath(baseId)}/imports?${query(o)}`, file);
