import { expect, it } from "vitest";
import type { ApiResult, TestApp } from "../support/app.ts";
import type { AppEvent } from "../../lib/events.ts";
import { findEndpoint } from "../../lib/http/schemas/index.ts";

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
  /**
   * The app events emitted on the runtime's bus during the request, in order, each matched as a
   * subset (e.g. `{ type: "rows.changed", kind: "added" }`); [] means none. After-commit events
   * are emitted before the handler returns, so they are all in by the time the response is.
   */
  events?: Lazy<Partial<AppEvent>[]>;
  /**
   * The webhook outbox messages the request wrote (webhook_messages rows), in any order, each
   * matched as a subset of `{ eventType, endpointId, workspaceId, body }` with body parsed; [] means none.
   */
  webhooks?: Lazy<WebhookExpectation[]>;
  /** Anything else to check, including database state after the request. */
  check?: (res: ApiResult, app: TestApp) => void | Promise<void>;
}

export interface WebhookExpectation {
  eventType?: string;
  endpointId?: string;
  workspaceId?: string;
  body?: unknown;
}

/** For a rejected request, or a read: nothing is emitted and nothing is written to the outbox. */
export const EMITS_NOTHING = { events: [], webhooks: [] } satisfies Pick<ApiScenario, "events" | "webhooks">;

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
  const events: AppEvent[] = [];
  const outboxBefore = s.webhooks === undefined ? undefined : await outboxIds(app);
  const off = app.rt.bus.on((e) => void events.push(e));
  let res: ApiResult;
  try {
    res = await app.api(s.method, value(s.path), {
      key,
      body: s.body === undefined ? undefined : value(s.body),
      raw: s.raw,
      headers: s.headers,
    });
  } finally {
    off();
  }
  const context = `${s.method} ${value(s.path)} → ${res.status} ${res.text.slice(0, 400)}`;
  expect(res.status, context).toBe(s.status);
  if (s.status >= 400 || s.code) expectErrorShape(res, s.code);
  else {
    expect(res.headers.get("content-type") ?? "", context).toMatch(/^application\/json/);
    expectDeclaredResponse(s.method, value(s.path), res, context);
  }
  if (s.bodyEquals !== undefined) expect(res.body, context).toEqual(value(s.bodyEquals));
  if (s.bodyMatches !== undefined) expect(res.body, context).toMatchObject(value(s.bodyMatches) as object);
  if (s.events !== undefined) {
    const want = value(s.events);
    expect(events, `${context}\nevents`).toHaveLength(want.length);
    expect(events, `${context}\nevents`).toEqual(want.map((e) => expect.objectContaining(e)));
  }
  if (outboxBefore !== undefined) {
    const want = value(s.webhooks!);
    const written = (await app.rt.db.prisma.webhookMessage.findMany({ where: { id: { notIn: outboxBefore } } })).map(
      (m) => ({
        eventType: m.eventType,
        endpointId: m.endpointId,
        workspaceId: m.workspaceId,
        body: JSON.parse(m.body),
      }),
    );
    expect(written, `${context}\nwebhook messages`).toHaveLength(want.length);
    expect(written, `${context}\nwebhook messages`).toEqual(expect.arrayContaining(want.map(subset)));
  }
  await s.check?.(res, app);
  return res;
}

/**
 * A successful answer has the shape its endpoint declares (lib/http/schemas), so a handler or view
 * that drifts from the schema the OpenAPI document is generated from fails a test.
 */
export function expectDeclaredResponse(method: string, path: string, res: ApiResult, context = `${method} ${path}`) {
  const { pathname } = new URL(path, "http://localhost");
  if (!pathname.startsWith("/api/v1/")) return;
  const endpoint = findEndpoint(method, pathname);
  expect(endpoint, `${context}\nno endpoint descriptor`).toBeDefined();
  const parsed = endpoint!.response.safeParse(res.body);
  const issues = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  expect(issues, `${context}\nresponse schema of ${endpoint!.method} ${endpoint!.path}`).toEqual([]);
}

/** An expected value matched as a subset: plain objects at any depth may have more keys. */
function subset(v: unknown): unknown {
  if (v === null || typeof v !== "object" || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype)
    return v;
  return expect.objectContaining(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subset(x)])));
}

async function outboxIds(app: TestApp): Promise<string[]> {
  return (await app.rt.db.prisma.webhookMessage.findMany({ select: { id: true } })).map((m) => m.id);
}

/** Declares one vitest test per scenario. */
export function scenarios(getApp: () => TestApp, list: ApiScenario[]) {
  for (const s of list) it(s.name, async () => void (await runScenario(getApp(), s)));
}
