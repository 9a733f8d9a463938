import { afterAll, beforeAll, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase } from "../support/bases.ts";
import { startEdgeServer, type EdgeServer } from "../support/edge-server.ts";
import { startImportWorker } from "../../lib/imports/worker.ts";
import { runImportFile } from "../../lib/cli/import-file.ts";
import { allRows } from "./helpers.ts";

// `npm run cli -- import --base <id> file.csv --merge-on Email` against a server over real HTTP
// (the app's route handlers behind a node:http server).

let app: TestApp;
let server: EdgeServer;
let url: string;
let dir: string;

beforeAll(async () => {
  app = await createTestApp();
  await startImportWorker(app.rt, { pollMs: 50 });
  server = await startEdgeServer();
  url = server.url;
  dir = mkdtempSync(path.join(tmpdir(), "cw-cli-import-"));
});
afterAll(async () => {
  await server.close();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[], apiKey: string = app.keyA) {
  const out: string[] = [];
  const err: string[] = [];
  const bars: string[] = [];
  const code = await runImportFile(
    argv,
    { url, apiKey },
    { out: (l) => out.push(l), err: (l) => err.push(l), progress: (t) => bars.push(t) },
  );
  return { code, out: out.join("\n"), err: err.join("\n"), bars };
}

it("uploads a file, follows it with a progress bar, and upserts on --merge-on", async () => {
  const { baseId } = await createBase(app, {
    columns: [
      { name: "Email", type: "email", isPrimary: true },
      { name: "Score", type: "number" },
    ],
  });
  const file = path.join(dir, "leads.csv");
  writeFileSync(file, "Email,Score\nann@x.test,1\nbob@x.test,2\n");
  const first = await cli(["--base", baseId, file]);
  expect(first.code, first.err).toBe(0);
  expect(first.out).toContain("done: 2 lines read, 2 rows created, 0 updated, 0 skipped");
  expect(first.bars.some((b) => /\[#+-*\] \d+% /.test(b))).toBe(true);
  writeFileSync(file, "Email,Score\nann@x.test,5\ncid@x.test,x\n");
  const second = await cli(["--base", baseId, file, "--merge-on", "Email"]);
  expect(second.code).toBe(0);
  expect(second.out).toContain("0 rows created, 1 updated, 1 skipped");
  expect(second.err).toContain("line 3, Score:");
  expect((await allRows(app, baseId)).map((r) => r.Score)).toEqual(["5", "2"]);
});

it("exits 64 on wrong usage or no key, and 1 when the server refuses", async () => {
  expect((await cli(["--base"])).code).toBe(64);
  expect((await cli(["--base", "x", "a.csv"], "")).code).toBe(64);
  const file = path.join(dir, "one.csv");
  writeFileSync(file, "Name\nAnn\n");
  const missing = await cli(["--base", "nope", file]);
  expect(missing.code).toBe(1);
  expect(missing.err).toContain("No base");
});
