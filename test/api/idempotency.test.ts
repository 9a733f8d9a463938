import { describe, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { CONFIGURE, balance, useAssistantApp, user } from "../assistant/helpers.ts";
import { COMPANIES, getRows } from "./fixtures.ts";
import { runScenario } from "./scenario.ts";
import { pruneIdempotencyKeys } from "../../lib/http/idempotency.ts";

// Idempotency-Key (IETF draft): the first answer to a POST is stored per workspace and key for
// 24 hours; the same request replays it and does nothing again; another request with the key is
// 422; a repeat while the first runs is 409. Stored in the database, pruned after 24 hours.

const t = useAssistantApp({}, { credits: 100 });
const keyed = (key: string, headers: Record<string, string> = {}) => ({
  headers: { "idempotency-key": key, ...headers },
});
const stored = (key: string) => t.app.rt.db.prisma.idempotencyKey.findMany({ where: { key } });

describe("Idempotency-Key", () => {
  it("replays the first answer of Add Rows, with Idempotency-Replayed, and adds no rows", async () => {
    const f = await createBase(t.app, COMPANIES);
    const path = `/api/v1/bases/${f.baseId}/add-rows`;
    const body = { rows: [{ cells: { Company: "Acme", Website: "acme.com", Summary: "set" } }] };
    const first = await t.app.api("POST", path, { body, ...keyed("add-1") });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    // Key order in the JSON does not make it another request.
    const reordered = { rows: [{ cells: { Summary: "set", Website: "acme.com", Company: "Acme" } }] };
    const again = await runScenario(t.app, {
      name: "replay",
      method: "POST",
      path,
      body: reordered,
      ...keyed("add-1"),
      status: 200,
      events: [],
    });
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await getRows(t.app, f.baseId)).toHaveLength(1);
    // Without a key, or with another key, the same body is a new request.
    expect((await t.app.api("POST", path, { body, ...keyed("add-2") })).headers.get("idempotency-replayed")).toBeNull();
    expect(await getRows(t.app, f.baseId)).toHaveLength(2);
  });

  it("answers 422 idempotency_key_reused for the same key with another body, changing nothing", async () => {
    const f = await createBase(t.app, COMPANIES);
    const path = `/api/v1/bases/${f.baseId}/add-rows`;
    await t.app.api("POST", path, { body: { rows: [{ cells: { Company: "Acme" } }] }, ...keyed("reuse") });
    await runScenario(t.app, {
      name: "reused",
      method: "POST",
      path,
      body: { rows: [{ cells: { Company: "Globex" } }] },
      ...keyed("reuse"),
      status: 422,
      code: "idempotency_key_reused",
      events: [],
    });
    // The same key on another endpoint is another request too.
    const other = await t.app.api("POST", `/api/v1/bases/${f.baseId}/delete-rows`, {
      body: { rowIds: [] },
      ...keyed("reuse"),
    });
    expect(other.status).toBe(422);
    expect((await getRows(t.app, f.baseId)).map((r) => r.cells.Company)).toEqual(["Acme"]);
  });

  it("scopes keys to the workspace: B's request with A's key name runs on its own", async () => {
    const a = await t.app.api("POST", "/api/v1/bases", {
      body: { baseName: "A", columns: [{ name: "N", type: "short-text", isPrimary: true }] },
      ...keyed("shared"),
    });
    const b = await t.app.api("POST", "/api/v1/bases", {
      key: t.app.keyB,
      body: { baseName: "A", columns: [{ name: "N", type: "short-text", isPrimary: true }] },
      ...keyed("shared"),
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotency-replayed")).toBeNull();
    expect(b.body.baseId).not.toBe(a.body.baseId);
    expect((await stored("shared")).map((k) => k.workspaceId).sort()).toEqual(
      [t.app.workspaceA, t.app.workspaceB].sort(),
    );
  });

  it("answers 409 idempotency_in_progress while the first runs, and charges the configure call once", async () => {
    const before = await balance(t.app);
    t.llm.setHandler(() => ({ text: "Created.", delayMs: 400 }));
    const send = () =>
      t.app.api("POST", CONFIGURE, { body: { baseName: "Once", messages: [user("Go.")] }, ...keyed("configure-1") });
    const results = await Promise.all([send(), send()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.error.code).toBe("idempotency_in_progress");
    const calls = t.llm.requests.length;
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body.baseId).toBe(results.find((r) => r.status === 200)!.body.baseId);
    expect(t.llm.requests.length).toBe(calls);
    expect(await balance(t.app)).toBe(before! - 5);
  });

  it("records a streamed answer and replays it as the same event stream", async () => {
    t.llm.setHandler(() => ({ text: "Streamed." }));
    const send = () =>
      t.app.api("POST", CONFIGURE, {
        body: { messages: [user("Go.")] },
        ...keyed("stream-1", { accept: "text/event-stream" }),
      });
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.text).toContain("Streamed.");
    const calls = t.llm.requests.length;
    const replay = await send();
    expect(replay.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    expect(t.llm.requests.length).toBe(calls);
  });

  it("stores 4xx answers, releases the key after a 5xx, and does not store refused input", async () => {
    const refused = await t.app.api("POST", "/api/v1/bases", { body: { baseName: "" }, ...keyed("invalid") });
    expect(refused.status).toBe(400);
    expect(await stored("invalid")).toEqual([]);
    const missing = await t.app.api("POST", "/api/v1/bases/NoSuch12/add-rows", {
      body: { rows: [] },
      ...keyed("missing"),
    });
    expect(missing.status).toBe(404);
    const again = await t.app.api("POST", "/api/v1/bases/NoSuch12/add-rows", {
      body: { rows: [] },
      ...keyed("missing"),
    });
    expect([again.status, again.headers.get("idempotency-replayed")]).toEqual([404, "true"]);
    t.llm.setHandler(() => ({ status: 503 }));
    const failed = await t.app.api("POST", CONFIGURE, { body: { messages: [user("Go.")] }, ...keyed("failed") });
    expect(failed.status).toBe(502);
    expect(await stored("failed")).toEqual([]);
  });

  it("refuses a malformed key with 400, and ignores keys on reads", async () => {
    const bad = await t.app.api("POST", "/api/v1/bases", { body: { baseName: "x" }, ...keyed("has space") });
    expect([bad.status, bad.body.error.code]).toEqual([400, "validation_failed"]);
    const read = await t.app.api("GET", "/api/v1/bases", keyed("read"));
    expect(read.status).toBe(200);
    expect(await stored("read")).toEqual([]);
  });

  it("runs anew once a key has expired, or when its first request died in flight", async () => {
    const f = await createBase(t.app, COMPANIES);
    const path = `/api/v1/bases/${f.baseId}/add-rows`;
    const body = { rows: [{ cells: { Company: "Acme" } }] };
    await t.app.api("POST", path, { body, ...keyed("old") });
    const prisma = t.app.rt.db.prisma;
    await prisma.idempotencyKey.updateMany({ where: { key: "old" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await t.app.api("POST", path, { body, ...keyed("old") })).headers.get("idempotency-replayed")).toBeNull();
    // A process that died mid-request left its key in flight; after ten minutes a retry takes over.
    await prisma.idempotencyKey.updateMany({
      where: { key: "old" },
      data: { statusCode: null, body: null, createdAt: new Date(Date.now() - 11 * 60_000) },
    });
    const retried = await t.app.api("POST", path, { body, ...keyed("old") });
    expect([retried.status, retried.headers.get("idempotency-replayed")]).toEqual([200, null]);
    expect(await getRows(t.app, f.baseId)).toHaveLength(3);
    expect((await stored("old"))[0].statusCode).toBe(200);
  });

  it("prunes keys after 24 hours", async () => {
    await t.app.api("POST", "/api/v1/bases", {
      body: { baseName: "P", columns: [{ name: "N", type: "short-text", isPrimary: true }] },
      ...keyed("prune"),
    });
    const [row] = await stored("prune");
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
    await pruneIdempotencyKeys(t.app.rt.db.prisma, new Date(row.expiresAt.getTime() - 1000));
    expect(await stored("prune")).toHaveLength(1);
    expect(await pruneIdempotencyKeys(t.app.rt.db.prisma, new Date(row.expiresAt.getTime() + 1000))).toBeGreaterThan(0);
    expect(await stored("prune")).toEqual([]);
  });
});
