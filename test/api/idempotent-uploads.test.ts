import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { dispatch } from "../support/router.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { allRows, waitForImport } from "../imports/helpers.ts";

// An upload's Idempotency-Key is matched by the SHA-256 of its bytes (with its name and type),
// not by its length: two files of one length under one key are two requests, and the second is
// refused (422) instead of replaying the first's answer while its rows never arrive. Checked on
// every endpoint that takes an upload, as the body and as multipart.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
  await startImportWorker(app.rt, { pollMs: 50 });
});
afterAll(() => app.close());

interface Sent {
  key: string;
  body: string;
  name?: string;
  type?: string;
  multipart?: boolean;
}

async function send(url: string, s: Sent) {
  const headers: Record<string, string> = { "x-api-key": app.keyA, "idempotency-key": s.key };
  let payload: BodyInit = s.body;
  if (s.multipart) {
    const form = new FormData();
    // FormData picks a new boundary for every request, as a client's retry would.
    form.set("file", new Blob([s.body], { type: s.type ?? "text/csv" }), s.name ?? "people.csv");
    payload = form;
  } else {
    headers["content-type"] = s.type ?? "text/csv";
    if (s.name) headers["content-disposition"] = `attachment; filename="${s.name}"`;
  }
  const res = await dispatch(new Request(`http://localhost${url}`, { method: "POST", headers, body: payload }));
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : null,
    text,
    replayed: res.headers.get("idempotency-replayed"),
  };
}

const storedKeys = (key: string) => app.rt.db.prisma.idempotencyKey.findMany({ where: { key } });
const filesOnDisk = () => readdirSync(path.resolve(app.rt.config.dataDir, "files")).sort();
const ACME = "name\nAcme\n";
const ZETA = "name\nZeta\n";

async function newBase() {
  return (await createBase(app, { columns: [{ name: "name", isPrimary: true }] })).baseId;
}

describe("Idempotency-Key on uploads", () => {
  expect(ACME.length).toBe(ZETA.length);

  for (const multipart of [false, true]) {
    it(`imports (${multipart ? "multipart" : "the file as the body"}): other bytes of the same length are 422, the same bytes replay`, async () => {
      const baseId = await newBase();
      const url = `/api/v1/bases/${baseId}/imports`;
      const key = `import-${multipart}`;
      const first = await send(url, { key, body: ACME, multipart });
      expect(first.status, first.text).toBe(202);
      expect(first.replayed).toBeNull();
      await waitForImport(app, baseId, first.body.id);
      const onDisk = filesOnDisk();

      const other = await send(url, { key, body: ZETA, multipart });
      expect([other.status, other.body.error.code]).toEqual([422, "idempotency_key_reused"]);
      const again = await send(url, { key, body: ACME, multipart });
      expect([again.status, again.replayed, again.body.id]).toEqual([202, "true", first.body.id]);

      const imports = await app.api("GET", url);
      expect(imports.body.imports.map((i: { id: string }) => i.id)).toEqual([first.body.id]);
      expect(await allRows(app, baseId)).toEqual([{ name: "Acme" }]);
      // Neither the refused nor the replayed upload left its bytes behind (a finished import's own file goes too).
      expect(filesOnDisk().filter((f) => !onDisk.includes(f))).toEqual([]);
      // Without the reused key, the other file is imported as usual.
      const fresh = await send(url, { key: `${key}-zeta`, body: ZETA, multipart });
      expect(fresh.status, fresh.text).toBe(202);
      await waitForImport(app, baseId, fresh.body.id);
      expect((await allRows(app, baseId)).map((r) => r.name).sort()).toEqual(["Acme", "Zeta"]);
    });
  }

  it("previews: the same bytes replay the first answer, other bytes are 422", async () => {
    const baseId = await newBase();
    const url = `/api/v1/bases/${baseId}/imports/preview`;
    const first = await send(url, { key: "preview", body: ACME, multipart: true });
    expect(first.status, first.text).toBe(200);
    expect(first.body.rows).toEqual([["Acme"]]);
    const other = await send(url, { key: "preview", body: ZETA, multipart: true });
    expect([other.status, other.body.error.code]).toEqual([422, "idempotency_key_reused"]);
    const again = await send(url, { key: "preview", body: ACME, name: "people.csv" });
    // The same file sent as the body is the same request as sent in a multipart form.
    expect([again.status, again.replayed, again.text]).toEqual([200, "true", first.text]);
  });

  it("file uploads: the same bytes replay (one stored file), other bytes or another name are 422", async () => {
    const baseId = await newBase();
    const url = `/api/v1/bases/${baseId}/files`;
    const note = { key: "file", body: "Meeting on Tuesday.", name: "note.txt", type: "text/plain", multipart: true };
    const first = await send(url, note);
    expect(first.status, first.text).toBe(201);
    const other = await send(url, { ...note, body: "Meeting on Thursday" });
    expect([other.status, other.body.error.code]).toEqual([422, "idempotency_key_reused"]);
    const renamed = await send(url, { ...note, name: "other.txt" });
    expect([renamed.status, renamed.body.error.code]).toEqual([422, "idempotency_key_reused"]);
    const again = await send(url, note);
    expect([again.status, again.replayed, again.body.fileId]).toEqual([201, "true", first.body.fileId]);
    const stored = await app.rt.db.prisma.storedFile.findMany({ where: { baseId } });
    expect(stored.map((f) => f.id)).toEqual([first.body.fileId]);
    expect((await app.api("GET", first.body.url)).text).toBe("Meeting on Tuesday.");
  });

  it("claims nothing for an upload refused before its file is in (empty, or no such base): its retry runs anew", async () => {
    const baseId = await newBase();
    const url = `/api/v1/bases/${baseId}/imports`;
    const empty = await send(url, { key: "empty", body: "" });
    expect([empty.status, empty.body.error.code]).toEqual([400, "empty_file"]);
    const missing = await send("/api/v1/bases/NoSuch12/imports", { key: "empty", body: ACME });
    expect([missing.status, missing.body.error.code]).toEqual([404, "base_not_found"]);
    expect(await storedKeys("empty")).toEqual([]);
    const retried = await send(url, { key: "empty", body: ACME });
    expect([retried.status, retried.replayed]).toEqual([202, null]);
    expect((await storedKeys("empty")).map((k) => k.statusCode)).toEqual([202]);
  });

  it("answers 409 to a repeat that arrives while the first upload still runs, and imports once", async () => {
    const baseId = await newBase();
    const url = `/api/v1/bases/${baseId}/imports`;
    const big = `name\n${Array.from({ length: 20_000 }, (_, i) => `Company ${i}`).join("\n")}\n`;
    const results = await Promise.all([send(url, { key: "race", body: big }), send(url, { key: "race", body: big })]);
    const statuses = results.map((r) => r.status).sort();
    // Both may finish receiving before either claims, or one may be answered by the other.
    expect([
      [202, 409],
      [202, 202],
    ]).toContainEqual(statuses);
    const imports = await app.api("GET", url);
    expect(imports.body.imports).toHaveLength(1);
    if (statuses[1] === 202)
      expect(results.map((r) => r.body.id)).toEqual([imports.body.imports[0].id, imports.body.imports[0].id]);
  });
});
