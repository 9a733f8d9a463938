import { describe, expect, it } from "vitest";
import { EXIT, runCli } from "../../lib/cli/run.ts";
import { COMMANDS } from "../../lib/cli/commands.ts";
import { table } from "../../lib/cli/command.ts";

// The CLI's argument handling, in-process: none of these reach the database.

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { DATA_DIR: "/nonexistent/never-opened" },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("CLI usage", () => {
  it("help lists every command of the table", async () => {
    const r = await run(["help"]);
    expect(r.code).toBe(EXIT.ok);
    expect(COMMANDS.length).toBeGreaterThan(0);
    for (const c of COMMANDS) expect(r.out).toContain(c.path);
    expect((await run([])).code).toBe(EXIT.usage);
  });

  it("a command's --help prints its usage", async () => {
    const r = await run(["key", "revoke", "--help"]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.out).toContain("npm run cli -- key revoke --workspace <name> --id <key_…>");
  });

  it.each([
    [["workspace", "create"], /--name is required/],
    [["workspace", "create", "--name"], /--name/],
    [["workspace", "create", "--name", "x", "--bogus"], /Unknown option '--bogus'/],
    [["key", "revoke", "--workspace", "acme"], /--id is required/],
    [["key", "list", "--workspace", "acme", "extra"], /Unexpected argument "extra"/],
    [["frobnicate"], /Unknown command "frobnicate"/],
    [["key"], /Unknown command "key"/],
  ])("%j is a usage error (64)", async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(EXIT.usage);
    expect(r.err).toMatch(/^error: /);
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it("every command has a summary, a usage line and unique words", () => {
    expect(COMMANDS.length).toBeGreaterThan(0);
    expect(new Set(COMMANDS.map((c) => c.path)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) {
      expect(c.summary).toMatch(/\.$/);
      for (const [name, o] of Object.entries(c.options)) if (o.required) expect(c.usage).toContain(`--${name}`);
    }
  });

  it("formats list output in aligned columns", () => {
    expect(
      table([
        ["ID", "NAME"],
        ["key_1", "a much longer name"],
      ]),
    ).toEqual(["ID     NAME", "key_1  a much longer name"]);
  });
});
