import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startEdgeServer, type EdgeServer } from "../support/edge-server.ts";
import { clientAddress } from "../../lib/http/client-ip.ts";
import { createSession } from "../../lib/auth/session.ts";
import { SESSION_COOKIE } from "../../lib/auth/session-cookie.ts";

// The audit log end to end: a scripted sequence of changes, sent over a real socket through the
// edge (which stamps the client's address), produces exactly the expected entries, in order.

let app: TestApp;
let edge: EdgeServer;
/** The owner's session cookie: workspace settings are a person's (members:manage), never a key's. */
let owner: Record<string, string>;
const OWNER_ID = "usr_auditowner";

beforeAll(async () => {
  // An AI column needs a provider; no engine runs, so a queued run stays open until cancelled.
  app = await createTestApp({
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    AI_MODEL: "openai:test-model",
    ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  });
  edge = await startEdgeServer();
  await app.rt.db.prisma.user.create({ data: { id: OWNER_ID, email: "owner@example.com", name: "Owner" } });
  await app.rt.db.prisma.membership.create({ data: { workspaceId: app.workspaceA, userId: OWNER_ID, role: "owner" } });
  const session = await createSession(app.rt, { workspaceId: app.workspaceA, keyId: null, userId: OWNER_ID });
  owner = { cookie: `${SESSION_COOKIE}=${session.token}`, origin: edge.url, "x-api-key": "" };
});
afterAll(async () => {
  await edge.close();
  await app.close();
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(edge.url + path, {
    method,
    headers: Object.fromEntries(
      Object.entries({
        "x-api-key": app.keyA,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      }).filter(([, v]) => v !== ""),
    ),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    // an export's file
  }
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return json;
}

describe("a scripted sequence", () => {
  it("records each change once, newest first, with actor, target, base, summary and address", async () => {
    const first = await app.rt.db.prisma.apiKey.findFirstOrThrow({ where: { workspaceId: app.workspaceA } });
    const base = await call("POST", "/api/v1/bases", {
      baseName: "Audited",
      columns: [
        { name: "Company", type: "short-text", isPrimary: true },
        {
          name: "Industry",
          type: "short-text",
          isAiEnabled: true,
          inputColumns: ["Company"],
          instructions: "Its industry.",
        },
      ],
    });
    const baseId = base.baseId as string;
    const col = await call("POST", `/api/v1/bases/${baseId}/columns`, { name: "Notes", type: "short-text" });
    await call("PATCH", `/api/v1/bases/${baseId}/columns/${col.id}`, { name: "Remarks" });
    await call("DELETE", `/api/v1/bases/${baseId}/columns/${col.id}`);
    const key = await call("POST", "/api/v1/api-keys", { name: "ci" });
    await call("DELETE", `/api/v1/api-keys/${key.id}`);
    const view = await call("POST", `/api/v1/bases/${baseId}/views`, { name: "Mine" });
    await call("GET", `/api/v1/bases/${baseId}/export?format=csv`);
    // Rows with every value given queue nothing: no run, no entry.
    const added = await call("POST", `/api/v1/bases/${baseId}/add-rows`, {
      rows: [{ cells: { Company: "Acme", Industry: "Rockets" } }],
    });
    expect(added.runId).toBeNull();
    const run = await call("POST", `/api/v1/bases/${baseId}/run`, {});
    expect(run.runId).toMatch(/^run_/);
    await call("POST", `/api/v1/runs/${run.runId}/cancel`);
    const hook = await call("POST", "/api/v1/webhooks", {
      url: "http://127.0.0.1:9/secret-hook",
      events: ["run.completed"],
    });
    await call("DELETE", `/api/v1/webhooks/${hook.id}`);
    await call("PATCH", "/api/v1/workspace", { auditRetentionDays: 30 }, owner);

    const { entries, nextCursor } = await call("GET", "/api/v1/audit");
    expect(nextCursor).toBeNull();
    const actor = { type: "key", id: first.id, name: first.name };
    const expected = [
      { action: "base.create", target: { type: "base", id: baseId }, baseId, summary: { name: "Audited", columns: 2 } },
      {
        action: "column.create",
        target: { type: "column", id: col.id },
        baseId,
        summary: { name: "Notes", type: "short-text" },
      },
      {
        action: "column.update",
        target: { type: "column", id: col.id },
        baseId,
        summary: { before: { name: "Notes" }, after: { name: "Remarks" } },
      },
      {
        action: "column.delete",
        target: { type: "column", id: col.id },
        baseId,
        summary: { before: { name: "Remarks", type: "short-text" } },
      },
      { action: "key.create", target: { type: "key", id: key.id }, baseId: null, summary: { name: "ci" } },
      { action: "key.revoke", target: { type: "key", id: key.id }, baseId: null, summary: { name: "ci" } },
      { action: "view.create", target: { type: "view", id: view.id }, baseId, summary: { name: "Mine" } },
      { action: "export.download", target: { type: "base", id: baseId }, baseId, summary: { format: "csv" } },
      { action: "run.start", target: { type: "run", id: run.runId }, baseId, summary: { queued: 1 } },
      { action: "run.cancel", target: { type: "run", id: run.runId }, baseId, summary: null },
      { action: "webhook.create", target: { type: "webhook", id: hook.id }, baseId: null },
      { action: "webhook.delete", target: { type: "webhook", id: hook.id }, baseId: null, summary: null },
      {
        action: "workspace.update",
        target: { type: "workspace", id: app.workspaceA },
        baseId: null,
        summary: { before: { auditRetentionDays: 365 }, after: { auditRetentionDays: 30 } },
      },
    ].reverse();
    expect(entries.map((e: { action: string }) => e.action)).toEqual(expected.map((e) => e.action));
    entries.forEach((entry: any, i: number) => {
      const by =
        expected[i].action === "workspace.update" ? { type: "user", id: OWNER_ID, name: "owner@example.com" } : actor;
      expect(entry).toMatchObject({ ...expected[i], actor: by, ip: "127.0.0.1" });
      expect(entry.id).toMatch(/^aud_/);
    });
    // A webhook's entry keeps its settings, never its URL or secret.
    const created = entries.find((e: { action: string }) => e.action === "webhook.create");
    expect(created.summary).toMatchObject({ events: ["run.completed"], enabled: true });
    expect(JSON.stringify(entries)).not.toContain("secret-hook");
    expect(JSON.stringify(entries)).not.toContain(key.key);
  });

  it("keeps before and after of a base's and a view's changes, and what a delete removed", async () => {
    const base = await call("POST", "/api/v1/bases", {
      baseName: "Short-lived",
      columns: [{ name: "Name", type: "short-text", isPrimary: true }],
    });
    const view = await call("POST", `/api/v1/bases/${base.baseId}/views`, { name: "Draft" });
    await call("PATCH", `/api/v1/bases/${base.baseId}/views/${view.id}`, { name: "Final" });
    await call("DELETE", `/api/v1/bases/${base.baseId}/views/${view.id}`);
    await call("PATCH", `/api/v1/bases/${base.baseId}`, { baseName: "Renamed" });
    const rows = await call("POST", `/api/v1/bases/${base.baseId}/add-rows`, { rows: [{ cells: { Name: "a" } }] });
    await call("POST", `/api/v1/bases/${base.baseId}/delete-rows`, { rowIds: [rows.rows[0].id, "sr_none"] });
    await call("DELETE", `/api/v1/bases/${base.baseId}`);
    const { entries } = await call("GET", `/api/v1/audit?baseId=${base.baseId}`);
    expect(entries.map((e: any) => [e.action, e.summary])).toEqual([
      ["base.delete", { before: { name: "Renamed" } }],
      ["rows.delete", { deleted: 1 }],
      ["base.update", { before: { name: "Short-lived" }, after: { name: "Renamed" } }],
      ["view.delete", { before: { name: "Final" } }],
      ["view.update", { before: { name: "Draft" }, after: { name: "Final" } }],
      ["view.create", { name: "Draft" }],
      ["base.create", { name: "Short-lived", columns: 1 }],
    ]);
  });

  it("records nothing for a refused change, nor for reads", async () => {
    const before = await app.rt.db.prisma.auditEntry.count();
    await expect(call("PATCH", "/api/v1/workspace", { auditRetentionDays: 0 }, owner)).rejects.toThrow(/400/);
    await call("GET", "/api/v1/workspace");
    await call("GET", "/api/v1/bases");
    expect(await app.rt.db.prisma.auditEntry.count()).toBe(before);
  });
});

describe("the client's address", () => {
  it("is the socket's: a client cannot name its own", async () => {
    await call(
      "PATCH",
      "/api/v1/workspace",
      { name: "workspace-a2" },
      {
        ...owner,
        "x-cellwright-client-ip": "6.6.6.6",
        "x-forwarded-for": "7.7.7.7",
      },
    );
    const [entry] = (await call("GET", "/api/v1/audit?limit=1")).entries;
    expect(entry).toMatchObject({ action: "workspace.update", ip: "127.0.0.1" });
    expect(entry.summary).toEqual({ before: { name: "workspace-a" }, after: { name: "workspace-a2" } });
  });

  it("behind a trusted proxy is the last X-Forwarded-For entry, the one the proxy appended", async () => {
    const proxied = await startEdgeServer({ trustProxy: true });
    try {
      const res = await fetch(`${proxied.url}/api/v1/workspace`, {
        method: "PATCH",
        headers: {
          cookie: owner.cookie,
          origin: proxied.url,
          "content-type": "application/json",
          "x-forwarded-for": "6.6.6.6, 203.0.113.7",
        },
        body: JSON.stringify({ name: "workspace-a" }),
      });
      expect(res.status).toBe(200);
    } finally {
      await proxied.close();
    }
    const [entry] = (await call("GET", "/api/v1/audit?limit=1")).entries;
    expect(entry.ip).toBe("203.0.113.7");
  });

  it("reads IPv4-mapped addresses as IPv4, and ignores an over-long forwarded value", () => {
    expect(clientAddress("::ffff:10.1.2.3", undefined)).toBe("10.1.2.3");
    expect(clientAddress("::1", undefined)).toBe("::1");
    expect(clientAddress("10.0.0.1", ["1.1.1.1", "2.2.2.2, 3.3.3.3"])).toBe("3.3.3.3");
    expect(clientAddress("10.0.0.1", "x".repeat(200))).toBeUndefined();
    expect(clientAddress(undefined, undefined)).toBeUndefined();
  });
});
