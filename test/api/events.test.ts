import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { dispatch } from "../support/router.ts";

// GET /bases/{id}/events: authenticated, workspace-scoped Server-Sent Events of committed changes.

let app: TestApp;
let baseId: string;

beforeAll(async () => {
  app = await createTestApp();
  const res = await app.api("POST", "/api/v1/bases", { body: { baseName: "Live" } });
  baseId = res.body.baseId;
});
afterAll(() => app.close());

function open(key: string | null, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const req = new Request(`http://localhost/api/v1/bases/${baseId}/events`, {
    headers: { ...(key ? { "x-api-key": key } : {}), ...headers },
    signal: abort.signal,
  });
  return { res: dispatch(req), abort };
}

async function readUntil(body: ReadableStream<Uint8Array>, needle: string) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return text;
}

describe("base events", () => {
  it("requires authentication and hides other workspaces' bases", async () => {
    const anonymous = await open(null).res;
    expect(anonymous.status).toBe(401);
    const other = await open(app.keyB).res;
    expect(other.status).toBe(404);
    expect((await other.json()).error.code).toBe("base_not_found");
  });

  it("streams rows.changed after add-rows commits, and replays it after a reconnect", async () => {
    const first = open(app.keyA);
    const res = await first.res;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const ready = await readUntil(res.body!, "event: ready");
    const readyId = /id: (\S+)\nevent: ready/.exec(ready)![1];

    const added = await app.api("POST", `/api/v1/bases/${baseId}/add-rows`, {
      body: { rows: [{ cells: { Name: "Ada" } }] },
    });
    const rowId = added.body.rows[0].id;
    const live = await readUntil(res.body!, '"kind":"added"');
    expect(live).toContain("event: rows.changed");
    expect(live).toContain(rowId);
    first.abort.abort();

    const again = await open(app.keyA, { "last-event-id": readyId }).res;
    const replay = await readUntil(again.body!, "event: ready");
    expect(replay).toContain(rowId);
    await again.body!.cancel();
  });

  it("ends a stream within 5 seconds of its key's revocation", async () => {
    const made = await app.api("POST", "/api/v1/api-keys", { body: { name: "watcher" } });
    const stream = open(made.body.key);
    const res = await stream.res;
    await readUntil(res.body!, "event: ready");
    const revokedAt = Date.now();
    expect((await app.api("DELETE", `/api/v1/api-keys/${made.body.id}`)).status).toBe(200);
    const rest = await readUntil(res.body!, "event: revoked");
    expect(rest).toContain("event: revoked");
    // After the revoked event the stream is closed: the next read ends it.
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(true);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
  });
});
