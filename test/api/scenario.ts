import { expect, it } from "vitest";
import type { ApiResult, TestApp } from "../support/app.ts";

// Data-driven API tests in the style of PocketBase's ApiScenario: each scenario is a request and
// what must come back. Paths and bodies may be functions, because ids exist only after setup.

type Lazy<T> = T | (() => T);

export interface ApiScenario {
  name: string;
  method: string;
  path: Lazy<string>;
  /** "A" (the default), "B", null for no key, or a literal key. */
  key?: Lazy<"A" | "B" | null | string>;
  body?: Lazy<unknown>;
  /** A raw body, sent as is (with `headers` deciding its content type). */
  raw?: string;
  headers?: Record<string, string>;
  status: number;
  /** For error answers: the catalog code. The shape { error: { code, message, details? } } is always checked. */
  code?: string;
  /** The whole body, compared with toEqual. */
  bodyEquals?: Lazy<unknown>;
  /** A subset of the body, compared with toMatchObject. */
  bodyMatches?: Lazy<unknown>;
  /** Anything else to check, including database state after the request. */
  check?: (res: ApiResult, app: TestApp) => void | Promise<void>;
}

const value = <T>(v: Lazy<T>): T => (typeof v === "function" ? (v as () => T)() : v);

/** Every error body is JSON with exactly `code`, `message` and maybe `details`. */
export function expectErrorShape(res: ApiResult, code?: string) {
  expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  expect(res.body).toBeTypeOf("object");
  expect(Object.keys(res.body)).toEqual(["error"]);
  const keys = Object.keys(res.body.error).sort();
  expect(["code", "message"].every((k) => keys.includes(k))).toBe(true);
  expect(keys.every((k) => ["code", "details", "message"].includes(k))).toBe(true);
  expect(res.body.error.message).toBeTypeOf("string");
  expect(res.body.error.message.length).toBeGreaterThan(0);
  if (code) expect(res.body.error.code).toBe(code);
  // Never an HTML page or a stack trace.
  expect(res.text).not.toMatch(/<html|\bat [\w.<>]+ \(|node_modules/i);
}

export async function runScenario(app: TestApp, s: ApiScenario): Promise<ApiResult> {
  const keyChoice = s.key === undefined ? "A" : value(s.key);
  const key = keyChoice === "A" ? app.keyA : keyChoice === "B" ? app.keyB : keyChoice;
  const res = await app.api(s.method, value(s.path), {
    key,
    body: s.body === undefined ? undefined : value(s.body),
    raw: s.raw,
    headers: s.headers,
  });
  const context = `${s.method} ${value(s.path)} → ${res.status} ${res.text.slice(0, 400)}`;
  expect(res.status, context).toBe(s.status);
  if (s.status >= 400 || s.code) expectErrorShape(res, s.code);
  else expect(res.headers.get("content-type") ?? "", context).toMatch(/^application\/json/);
  if (s.bodyEquals !== undefined) expect(res.body, context).toEqual(value(s.bodyEquals));
  if (s.bodyMatches !== undefined) expect(res.body, context).toMatchObject(value(s.bodyMatches) as object);
  await s.check?.(res, app);
  return res;
}

/** Declares one vitest test per scenario. */
export function scenarios(getApp: () => TestApp, list: ApiScenario[]) {
  for (const s of list) it(s.name, async () => void (await runScenario(getApp(), s)));
}
