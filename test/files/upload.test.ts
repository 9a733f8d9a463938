import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { createBase } from "../support/bases.ts";
import { addRows, settled } from "../engine/helpers.ts";
import { dispatch } from "../support/router.ts";
import { waitFor } from "../support/wait.ts";
import { filesDir } from "../../lib/files/file-store.ts";
import { existsSync } from "node:fs";
import path from "node:path";

let app: TestApp;
let llm: FakeLlm;
let baseId: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  app = await createTestApp(
    { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:m", FILE_MAX_BYTES: "2000" },
    { engine: true },
  );
  baseId = (
    await createBase(app, {
      columns: [
        { name: "Doc", type: "file", isPrimary: true },
        {
          name: "Gist",
          isAiEnabled: true,
          inputColumns: ["Doc"],
          tools: ["file-analysis"],
          instructions: "What is the meeting day?",
        },
      ],
    })
  ).baseId;
});
afterAll(async () => {
  await app.close();
  await llm.close();
});

async function upload(name: string, type: string, body: Buffer | string, key = app.keyA, base = baseId) {
  const form = new FormData();
  form.set("file", new Blob([typeof body === "string" ? body : new Uint8Array(body)], { type }), name);
  const res = await dispatch(
    new Request(`http://localhost/api/v1/bases/${base}/files`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: form,
    }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

describe("file uploads", () => {
  it("deletes a base's files with it, bytes and all", async () => {
    const { baseId: doomed } = await createBase(app, { columns: [{ name: "Doc", type: "file", isPrimary: true }] });
    const up = await upload("gone.txt", "text/plain", "soon gone", app.keyA, doomed);
    expect(up.status).toBe(201);
    const onDisk = path.join(filesDir(app.rt), up.body.fileId);
    expect(existsSync(onDisk)).toBe(true);
    expect((await app.api("DELETE", `/api/v1/bases/${doomed}`)).status).toBe(200);
    await waitFor(() => !existsSync(onDisk), "the file's bytes to be removed");
    expect((await app.api("GET", up.body.url)).status).toBe(404);
  });

  it("stores a file, serves it to the same workspace only, and analyses it in a cell", async () => {
    const up = await upload("notes.txt", "text/plain", "Plain notes: the meeting is on Tuesday.");
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({
      fileId: expect.stringMatching(/^file_/),
      url: `/api/v1/files/${up.body.fileId}`,
      name: "notes.txt",
      size: 39,
    });
    const own = await app.api("GET", up.body.url);
    expect(own.status).toBe(200);
    expect(own.text).toBe("Plain notes: the meeting is on Tuesday.");
    expect((await app.api("GET", up.body.url, { key: app.keyB })).body.error.code).toBe("file_not_found");

    llm.setHandler((req) => {
      if (!req.messages.some((m) => m.role === "tool"))
        return { toolCalls: [{ name: "file-analysis", args: { url: up.body.url } }] };
      const tool = req.messages.find((m) => m.role === "tool")!.content;
      return {
        json: { value: tool.includes("Tuesday") ? "Tuesday" : "unknown", sources: [up.body.url], confidenceScore: 0.9 },
      };
    });
    await addRows(app, baseId, [{ Doc: up.body.url }]);
    const [row] = await settled(app, baseId);
    expect(row.cells.Gist).toMatchObject({ value: "Tuesday", status: "done" });
    expect(row.cells.Gist.metadata.sources).toEqual([`[notes.txt](${up.body.url})`]);
  });

  it("keeps an uploaded image but tells the model it cannot read it, without citing it", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const up = await upload("logo.png", "image/png", png);
    expect(up.status).toBe(201);
    let toolText = "";
    llm.setHandler((req) => {
      const tool = req.messages.find((m) => m.role === "tool");
      if (!tool) return { toolCalls: [{ name: "file-analysis", args: { url: up.body.url } }] };
      toolText = tool.content;
      return { json: { value: "unknown", sources: [up.body.url], confidenceScore: 0.1 } };
    });
    await addRows(app, baseId, [{ Doc: up.body.url }]);
    const rows = await settled(app, baseId);
    const row = rows.find((r) => r.cells.Doc.value === up.body.url)!;
    expect(toolText).toContain("unsupported_file");
    expect(toolText).not.toMatch(/[A-Za-z0-9+/]{60,}/);
    // Nothing was retrieved that could be cited: no sources (null, as the spec says), not [].
    expect(row.cells.Gist.metadata.sources).toBeNull();
  });

  it("refuses empty, oversized, unsupported and corrupt files with a 4xx", async () => {
    expect((await upload("e.txt", "text/plain", "")).body.error.code).toBe("empty_file");
    expect((await upload("big.txt", "text/plain", "x".repeat(3000))).status).toBe(413);
    expect(
      (await upload("a.zip", "application/zip", Buffer.from("PK\u0003\u0004garbage"))).status,
    ).toBeGreaterThanOrEqual(400);
    expect((await upload("a.pdf", "application/pdf", "not a pdf")).body.error.code).toBe("corrupt_file");
    expect((await upload("x.bin", "application/octet-stream", Buffer.from([0, 1, 2, 3, 0, 0]))).body.error.code).toBe(
      "unsupported_file",
    );
    expect((await upload("n.txt", "text/plain", "hi", app.keyB)).body.error.code).toBe("base_not_found");
  });
});
