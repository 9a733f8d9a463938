import { afterAll, beforeAll } from "vitest";
import { type ApiResult, createTestApp, type TestApp } from "./app.ts";

// People in API tests: the first owner, invitations accepted, password sign-in, all over the
// real endpoints with the same-origin header a browser sends.

export const ORIGIN = "http://localhost";
export const PASSWORD = "correct horse battery";

/** The session cookie (name=value) an answer sets, or "". */
export const cookieOf = (res: ApiResult) => (res.headers.get("set-cookie") ?? "").split(";")[0];

export async function signInWithPassword(app: TestApp, email: string, password = PASSWORD, workspace?: string) {
  const res = await app.api("POST", "/api/v1/session", {
    key: null,
    body: workspace ? { email, password, workspace } : { email, password },
    headers: { origin: ORIGIN },
  });
  return { res, cookie: cookieOf(res) };
}

/** The workspace's first owner account, made with the workspace key; signed in. */
export async function makeFirstOwner(app: TestApp, email = "owner@example.com", key = app.keyA) {
  const res = await app.api("POST", "/api/v1/members/first-owner", {
    key,
    body: { email, name: "Owner", password: PASSWORD },
  });
  if (res.status !== 201) throw new Error(`first owner: ${res.status} ${res.text}`);
  const { cookie } = await signInWithPassword(app, email);
  return { userId: res.body.userId as string, cookie };
}

/**
 * The people suites' set-up: a test app whose workspace A has its first owner, signed in; made
 * before the file's tests and closed after them.
 */
export function useAppWithOwner() {
  const t = {} as { app: TestApp; owner: { userId: string; cookie: string } };
  beforeAll(async () => {
    t.app = await createTestApp();
    t.owner = await makeFirstOwner(t.app);
  });
  afterAll(() => t.app?.close());
  return t;
}

/** An invitation made by the holder of `auth` (a cookie or a key). */
export async function invite(app: TestApp, auth: { cookie?: string; key?: string }, role: string, email?: string) {
  const res = await app.api("POST", "/api/v1/invitations", {
    key: auth.key ?? null,
    body: email ? { role, email } : { role },
    headers: auth.cookie ? { cookie: auth.cookie, origin: ORIGIN } : {},
  });
  if (res.status !== 201) throw new Error(`invite: ${res.status} ${res.text}`);
  return { id: res.body.id as string, token: new URL(res.body.url).searchParams.get("token") ?? "", body: res.body };
}

export function accept(app: TestApp, token: string, email: string, password = PASSWORD, name?: string) {
  return app.api("POST", "/api/v1/invitations/accept", {
    key: null,
    body: name === undefined ? { token, email, password } : { token, email, password, name },
    headers: { origin: ORIGIN },
  });
}

/** A member with the role in workspace A, joined through an invitation made by the workspace key. */
export async function join(app: TestApp, role: string, email: string, key = app.keyA) {
  const { token } = await invite(app, { key }, role);
  const res = await accept(app, token, email);
  if (res.status !== 201) throw new Error(`accept: ${res.status} ${res.text}`);
  return { userId: res.body.userId as string, cookie: cookieOf(res) };
}

/** GET with a cookie. */
export const getWith = (app: TestApp, path: string, cookie: string) =>
  app.api("GET", path, { key: null, headers: { cookie } });

/** A write with a cookie from this site. */
export const sendWith = (app: TestApp, method: string, path: string, cookie: string, body?: unknown) =>
  app.api(method, path, { key: null, body, headers: { cookie, origin: ORIGIN } });
