import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { freshDatabaseTarget } from "../support/database.ts";
import { createSignInLink, signInUrl, SIGN_IN_LINK_TTL_MS, SIGN_IN_KEY_NAME } from "../../lib/auth/sign-in-link.ts";
import { createRuntime, stopRuntime } from "../../lib/runtime.ts";
import { loadConfig } from "../../lib/config.ts";
import { printFirstStartLink } from "../../lib/boot.ts";

// One-time sign-in links: stored hashed, used once, for 15 minutes; opening one sets the session
// cookie and lands on the bases page. The first start creates the workspace and prints one line.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ HOST: "127.0.0.1", PORT: "3000" });
});
afterAll(() => app.close());

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const open = (token: string, headers: Record<string, string> = {}) =>
  app.api("GET", `/api/v1/session/link?token=${encodeURIComponent(token)}`, { key: null, headers });

describe("a sign-in link", () => {
  it("is stored as a hash only, and its URL names this server", async () => {
    const link = await createSignInLink(app.rt.db.prisma, app.rt.config);
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
    expect(link.workspace.id).toBe(app.workspaceA);
    expect(link.expiresAt.getTime() - Date.now()).toBeGreaterThan(SIGN_IN_LINK_TTL_MS - 5_000);
    const token = tokenOf(link.url);
    const rows = await app.rt.db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM sign_in_tokens`);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((r) => r.token_hash)).toContain(createHash("sha256").update(token).digest("hex"));
  });

  it("sets the session cookie and redirects to the bases page, once", async () => {
    const token = tokenOf((await createSignInLink(app.rt.db.prisma, app.rt.config)).url);
    const res = await open(token);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^cellwright_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict/);
    const cookie = setCookie.split(";")[0];
    const me = await app.api("GET", "/api/v1/session", { key: null, headers: { cookie } });
    expect(me.body).toMatchObject({ authenticated: true, workspaceId: app.workspaceA });
    // The session hangs off the workspace's browser sign-in key.
    const keys = (await app.api("GET", "/api/v1/api-keys")).body.apiKeys as { name: string }[];
    expect(keys.filter((k) => k.name === SIGN_IN_KEY_NAME)).toHaveLength(1);

    const again = await open(token);
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe("invalid_sign_in_link");
    expect(again.headers.get("set-cookie")).toBeNull();
    // A browser gets the sign-in page, which says what happened.
    const browser = await open(token, { accept: "text/html,application/xhtml+xml" });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toBe("/sign-in?link=invalid");
  });

  it("expires after 15 minutes", async () => {
    const past = new Date(Date.now() - SIGN_IN_LINK_TTL_MS - 1_000);
    const token = tokenOf((await createSignInLink(app.rt.db.prisma, app.rt.config, undefined, past)).url);
    expect((await open(token)).body.error.code).toBe("invalid_sign_in_link");
  });

  it("refuses made-up and malformed tokens the same way", async () => {
    for (const token of ["x".repeat(43), "", "not a token", "a".repeat(150)]) {
      const res = await open(token);
      expect([400, 401]).toContain(res.status);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("links a browser on this machine to a wildcard listen address", () => {
    expect(signInUrl({ host: "0.0.0.0", port: 8080 }, "t")).toBe("http://127.0.0.1:8080/sign-in?token=t");
    expect(signInUrl({ host: "::1", port: 3000 }, "t")).toBe("http://[::1]:3000/sign-in?token=t");
    expect(signInUrl({ host: "10.0.0.5", port: 3000 }, "t")).toBe("http://10.0.0.5:3000/sign-in?token=t");
  });
});

describe("the first start", () => {
  it("creates the workspace and prints exactly one sign-in line, only when no workspace exists", async () => {
    const { target, drop } = await freshDatabaseTarget();
    const rt = await createRuntime(loadConfig({ DATA_DIR: "./unused", HOST: "127.0.0.1", PORT: "3999" }), {
      target,
      queue: "database",
    });
    try {
      const lines: string[] = [];
      await printFirstStartLink(rt, (l) => lines.push(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Sign in: http:\/\/127\.0\.0\.1:3999\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
      expect(await rt.db.prisma.workspace.count()).toBe(1);
      await printFirstStartLink(rt, (l) => lines.push(l));
      expect(lines).toHaveLength(1);
      expect(await rt.db.prisma.signInToken.count()).toBe(1);
    } finally {
      await stopRuntime(rt);
      await drop();
    }
  });

  it("prints nothing when API_KEY seeded a workspace", async () => {
    const lines: string[] = [];
    await printFirstStartLink(app.rt, (l) => lines.push(l));
    expect(lines).toEqual([]);
  });
});
