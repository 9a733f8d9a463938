import { afterAll, beforeAll, expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { TARGET_QUERY } from "../support/fake-world.ts";
import { startEdgeServer, type EdgeServer } from "../support/edge-server.ts";
import { worldModel } from "../support/world-model.ts";
import { useFindApp } from "../finds/helpers.ts";
import { runCli } from "../../lib/cli/run.ts";

// `npm run cli -- find` against a server over real HTTP (the app's route handlers behind a
// node:http server, its engine searching the fake world): preview, then extend, following each
// with --wait; and the mistakes it refuses before calling the server.

const t = useFindApp();
let server: EdgeServer;
let url: string;

beforeAll(async () => {
  server = await startEdgeServer();
  url = server.url;
});
afterAll(() => server.close());

async function cli(args: string[], env: Record<string, string> = { CELLWRIGHT_API_KEY: t.app.keyA }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(["find", "--url", url, ...args], env, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err };
}

it("previews with --wait, printing progress and the command that extends it; then extends", async () => {
  t.llm.setHandler(worldModel());
  const { baseId } = await createBase(t.app, {
    columns: [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Website", type: "url" },
    ],
  });
  const criteria = ["--criterion", "Based in Berlin", "--criterion", "Makes software"];
  const preview = await cli([
    "--base",
    baseId,
    "--query",
    TARGET_QUERY,
    ...criteria,
    "--count",
    "3",
    "--preview",
    "--wait",
  ]);
  expect(preview.code, preview.err.join("\n")).toBe(0);
  const [first] = preview.out;
  const findId = /Find (find_\S+) \(run run_\S+\) previews 3 row\(s\)/.exec(first)?.[1];
  expect(findId, first).toBeDefined();
  expect(preview.out.some((l) => /^(planning|searching): 0 of 3 added;/.test(l))).toBe(true);
  expect(preview.out).toContain("Stopped (preview): 0 row(s) added.");
  expect(preview.out.find((l) => l.startsWith("  Based in Berlin: "))).toMatch(/% yes \(\d+ of \d+\)$/);
  const next = preview.out.at(-1)!;
  expect(next).toContain(`npm run cli -- find --base ${baseId} --extend ${findId} --count 3 --wait`);
  expect(next).toMatch(/about \d+ credits/);

  const extended = await cli(["--base", baseId, "--extend", findId!, "--count", "3", "--wait", "--json"]);
  expect(extended.code, extended.err.join("\n")).toBe(0);
  // --json: the find alone on stdout, progress on stderr.
  expect(extended.out).toHaveLength(1);
  const find = JSON.parse(extended.out[0]);
  expect(find).toMatchObject({ id: findId, phase: "done", stopReason: "target", preview: false });
  expect(find.candidates.added).toBe(3);
  expect(extended.err.some((l) => l.startsWith("stopped: 3 of 3 added;"))).toBe(true);
  const rows = await t.app.api("GET", `/api/v1/bases/${baseId}/rows`);
  expect(rows.body.rows).toHaveLength(3);
});

it("refuses a wrong call with its usage, before asking the server", async () => {
  const usage = async (args: string[], env?: Record<string, string>) => {
    const r = await cli(args, env);
    expect(r.code, r.err.join("\n")).toBe(64);
    expect(r.err.at(-1)).toMatch(/^Usage: npm run cli -- find --base <baseId>/);
    return r.err[0];
  };
  expect(await usage(["--base", "b", "--query", "q", "--count", "2"])).toContain("at least one --criterion");
  expect(await usage(["--base", "b", "--criterion", "x", "--count", "2"])).toContain("--query is required");
  expect(await usage(["--base", "b", "--extend", "find_x", "--query", "q", "--count", "2"])).toContain(
    "--query is the find's own",
  );
  expect(await usage(["--base", "b", "--query", "q", "--criterion", "x", "--count", "two"])).toContain(
    "--count must be a whole number",
  );
  expect(await usage(["--base", "b", "--query", "q", "--criterion", "x", "--count", "2"], {})).toContain(
    "An API key is needed",
  );
  const missing = await cli(["--base", "nope0000", "--query", "q", "--criterion", "x", "--count", "2"]);
  expect(missing.code).toBe(1);
  expect(missing.err[0]).toContain("(base_not_found)");
});
