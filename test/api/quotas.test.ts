import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { dispatch } from "../support/router.ts";
import { QUOTAS } from "../../lib/domain/limits.ts";

// The documented caps: past one, a request answers 409 limit_reached and changes nothing. The
// suites fill up to the cap directly in the database (fast), then ask through the API.

let app: TestApp;
let baseId: string;

beforeAll(async () => {
  app = await createTestApp({ ALLOWED_PRIVATE_HOSTS: "127.0.0.1,::1" });
  baseId = (await createBase(app, { columns: [{ name: "Name", isPrimary: true }] })).baseId;
});
afterAll(() => app.close());

const db = () => app.rt.db.prisma;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function expectLimit(res: { status: number; body: any }, limit: number) {
  expect(res.status).toBe(409);
  expect(res.body.error).toMatchObject({ code: "limit_reached", details: { limit } });
}

describe("limits and quotas", () => {
  it(`columns: at most ${QUOTAS.columnsPerBase} per base`, async () => {
    const sheetId = (await app.api("GET", `/api/v1/bases/${baseId}/base-structure`)).body.sheet.id;
    await db().column.createMany({
      data: range(QUOTAS.columnsPerBase - 1).map((i) => ({
        id: `scol_quota${i}`,
        sheetId,
        name: `C${i}`,
        nameKey: `c${i}`,
        position: i + 1,
        type: "short-text",
      })),
    });
    expectLimit(
      await app.api("POST", `/api/v1/bases/${baseId}/columns`, { body: { name: "One too many" } }),
      QUOTAS.columnsPerBase,
    );
    expect(await db().column.count({ where: { sheetId } })).toBe(QUOTAS.columnsPerBase);
  });

  it(`API keys: at most ${QUOTAS.apiKeysPerWorkspace} per workspace, revoked ones included`, async () => {
    const have = await db().apiKey.count({ where: { workspaceId: app.workspaceA } });
    await db().apiKey.createMany({
      data: range(QUOTAS.apiKeysPerWorkspace - have).map((i) => ({
        id: `key_quota${i}`,
        workspaceId: app.workspaceA,
        name: `k${i}`,
        prefix: "cw_q",
        hash: `quota-hash-${i}`,
        revokedAt: new Date(),
      })),
    });
    expectLimit(await app.api("POST", "/api/v1/api-keys", { body: { name: "extra" } }), QUOTAS.apiKeysPerWorkspace);
  });

  it(`webhook endpoints: at most ${QUOTAS.webhooksPerWorkspace} per workspace`, async () => {
    await db().webhookEndpoint.createMany({
      data: range(QUOTAS.webhooksPerWorkspace).map((i) => ({
        id: `wh_quota${i}`,
        workspaceId: app.workspaceB,
        url: `https://hooks.example.com/${i}`,
        events: ["row.sheet.processed"],
        secret: "whsec_x",
      })),
    });
    const res = await app.api("POST", "/api/v1/webhooks", {
      key: app.keyB,
      body: { url: "http://127.0.0.1:9/hook", events: ["row.sheet.processed"] },
    });
    expectLimit(res, QUOTAS.webhooksPerWorkspace);
  });

  it(`files: at most ${QUOTAS.filesPerBase} per base`, async () => {
    await db().storedFile.createMany({
      data: range(QUOTAS.filesPerBase).map((i) => ({
        id: `file_quota${i}`,
        workspaceId: app.workspaceA,
        baseId,
        name: `f${i}.txt`,
        contentType: "text/plain",
        size: 1,
        sha256: "x",
        storagePath: `file_quota${i}`,
      })),
    });
    const form = new FormData();
    form.set("file", new Blob(["hello"], { type: "text/plain" }), "one-more.txt");
    const res = await dispatch(
      new Request(`http://localhost/api/v1/bases/${baseId}/files`, {
        method: "POST",
        headers: { "x-api-key": app.keyA },
        body: form,
      }),
    );
    expectLimit({ status: res.status, body: await res.json() }, QUOTAS.filesPerBase);
  });

  it(`event streams: at most ${QUOTAS.eventStreamsPerKey} open per key, and a closed one frees its slot`, async () => {
    const open = () => {
      const abort = new AbortController();
      const res = dispatch(
        new Request(`http://localhost/api/v1/bases/${baseId}/events`, {
          headers: { "x-api-key": app.keyA },
          signal: abort.signal,
        }),
      );
      return { res, abort };
    };
    const streams = range(QUOTAS.eventStreamsPerKey).map(open);
    for (const s of streams) expect((await s.res).status).toBe(200);
    const extra = await open().res;
    expectLimit({ status: extra.status, body: await extra.json() }, QUOTAS.eventStreamsPerKey);
    const first = await streams[0].res;
    await first.body!.cancel();
    const again = open();
    expect((await again.res).status).toBe(200);
    for (const s of [...streams.slice(1), again]) await (await s.res).body!.cancel();
  });
});
