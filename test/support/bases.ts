import { expect } from "vitest";
import type { TestApp } from "./app.ts";

// The one way the suites create a base: POST /api/v1/bases, as a client would.

export interface BaseSpec {
  /** The columns, as POST /api/v1/bases takes them. */
  columns: unknown[];
  /** The base's (and its sheet's) name; "Test base" unless given. */
  name?: string;
  /** The API key to create it with; workspace A's unless given. */
  key?: string;
}

export interface TestBase {
  baseId: string;
  sheetId: string;
  /** Column ids by column name. */
  col: Record<string, string>;
  /** The whole response: the base structure. */
  structure: any;
}

export async function createBase(app: TestApp, spec: BaseSpec): Promise<TestBase> {
  const res = await app.api("POST", "/api/v1/bases", {
    key: spec.key ?? app.keyA,
    body: { baseName: spec.name ?? "Test base", columns: spec.columns },
  });
  expect(res.status, res.text).toBe(201);
  const col: Record<string, string> = {};
  for (const c of res.body.sheetColumns as { id: string; name: string }[]) col[c.name] = c.id;
  return { baseId: res.body.baseId, sheetId: res.body.sheet.id, col, structure: res.body };
}
