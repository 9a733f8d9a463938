import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createBase, type TestBase } from "../support/bases.ts";
import { dispatch } from "../support/router.ts";
import { addRows } from "../api/fixtures.ts";
import { isBaseExport, runBaseExport } from "../../lib/cli/base-export.ts";
import { csvRows, jsonlRows } from "./helpers.ts";

// `npm run cli -- export --base …` against the app's route handlers served over real HTTP.

let app: TestApp;
let base: TestBase;
let server: Server;
let url: string;

beforeAll(async () => {
  app = await createTestApp();
  base = await createBase(app, {
    name: "Cli",
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Employees", type: "number" },
    ],
  });
  await addRows(app, base.baseId, [
    { Company: "Acme", Employees: 3 },
    { Company: "Globex, Ltd", Employees: 40 },
  ]);
  server = createServer(async (req, res) => {
    const answer = await dispatch(
      new Request(`http://localhost${req.url}`, { headers: req.headers as Record<string, string> }),
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    const reader = answer.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      res.write(chunk.value);
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await app.close();
});

async function cli(args: string[], opts: { tty?: boolean; key?: string | null } = {}) {
  const out: Buffer[] = [];
  let err = "";
  const stdout = new Writable({ write: (chunk, _enc, done) => (out.push(Buffer.from(chunk)), done()) });
  const stderr = { isTTY: opts.tty ?? false, write: (text: string) => (err += text) };
  const apiKey = opts.key === null ? undefined : (opts.key ?? app.keyA);
  const code = await runBaseExport(["export", ...args], { url, apiKey }, { stdout, stderr });
  return { code, out: Buffer.concat(out), err };
}

describe("cli export --base", () => {
  it("is told apart from the whole-database export by --base", () => {
    expect(isBaseExport(["export", "--base", "x"])).toBe(true);
    expect(isBaseExport(["export", "--base=x"])).toBe(true);
    expect(isBaseExport(["export", "--out", "db.jsonl"])).toBe(false);
  });

  it("writes the CSV to stdout, and nothing to stderr when it is not a terminal", async () => {
    const r = await cli(["--base", base.baseId, "--format", "csv"]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    expect(csvRows(r.out)).toEqual([
      ["Company", "Employees"],
      ["Acme", "3"],
      ["Globex, Ltd", "40"],
    ]);
  });

  it("passes --ids, --columns and --sort, and shows progress on a terminal", async () => {
    const r = await cli(
      ["--base", base.baseId, "--format", "jsonl", "--ids", "--columns", "Company", "--sort=-Employees"],
      { tty: true },
    );
    expect(r.code).toBe(0);
    expect(jsonlRows(r.out).map((o) => o.Company)).toEqual(["Globex, Ltd", "Acme"]);
    expect(Object.keys(jsonlRows(r.out)[0])).toEqual(["Row ID", "Company"]);
    expect(r.err).toMatch(/\rExporting… 2 rows\n$/);
  });

  it.each([
    [["--format", "csv"], 64, /--base is required/],
    [["--base", "x", "--format", "pdf"], 64, /--format is csv, xlsx or jsonl/],
    [["--base", "x", "--bogus"], 64, /Unknown option '--bogus'/],
    [["--base", "Nope1234"], 1, /\(base_not_found\)/],
    [["--base", "BASE", "--columns", "Nope"], 1, /No column "Nope".*\(unknown_column\)/],
  ])("%j exits %d", async (args, code, message) => {
    const r = await cli(args.map((a) => (a === "BASE" ? base.baseId : a)));
    expect(r.code).toBe(code);
    expect(r.err).toMatch(message);
    expect(r.out.length).toBe(0);
  });

  it("needs CELLWRIGHT_API_KEY", async () => {
    const r = await cli(["--base", base.baseId], { key: null });
    expect(r.code).toBe(64);
    expect(r.err).toMatch(/CELLWRIGHT_API_KEY/);
  });
});
