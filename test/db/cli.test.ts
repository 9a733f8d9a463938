import path from "node:path";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../../lib/db/database.ts";
import { createRuntime, stopRuntime } from "../../lib/runtime.ts";
import { loadConfig } from "../../lib/config.ts";
import { principalForKey } from "../../lib/auth/authenticate.ts";
import { freshDatabaseTarget } from "../support/database.ts";

// The CLI, run as users run it: a separate process on the database the environment names
// (a temporary DATA_DIR, or a fresh PostgreSQL database when TEST_DATABASE_URL is set).

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const KEY = /\bcw_[A-Za-z0-9]{32,}\b/;

let dataDir: string;
let env: Record<string, string>;
let dropDb: () => Promise<void> = async () => undefined;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], extraEnv: Record<string, string> = {}, script = "lib/cli/index.ts"): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, script, ...args], {
      cwd: root,
      env: { ...env, ...extraEnv } as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One clear line on stderr, never a stack trace. */
function expectCleanError(r: Run) {
  expect(r.stderr).toMatch(/^error: /m);
  expect(r.stderr).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-cli-"));
  const base = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NEXT_TELEMETRY_DISABLED: "1" };
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await freshDatabaseTarget();
    dropDb = fresh.drop;
    env = { ...base, DATABASE_URL: (fresh.target as { url: string }).url };
  } else {
    env = { ...base, DATA_DIR: dataDir };
  }
});
afterAll(async () => {
  await dropDb();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run cli", () => {
  const keys: Record<string, string> = {};
  let secondKeyId = "";

  it("workspace create prints the new workspace's first key", async () => {
    const r = await cli(["workspace", "create", "--name", "acme", "--credits", "50"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Workspace "acme" created \(ws_[A-Za-z0-9]+\), 50 credits/);
    expect(r.stdout).toMatch(/shown only this once/);
    keys.first = KEY.exec(r.stdout)![0];
  }, 60_000);

  it("key create prints another key, and --json gives machine-readable output", async () => {
    const r = await cli(["key", "create", "--workspace", "acme", "--name", "deploy", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ name: "deploy", key: expect.stringMatching(KEY), id: expect.stringMatching(/^key_/) });
    expect(out.key).not.toBe(keys.first);
    keys.second = out.key;
    secondKeyId = out.id;
  }, 60_000);

  it("key list shows the keys without their secrets; key revoke revokes one", async () => {
    const revoke = await cli(["key", "revoke", "--workspace", "acme", "--id", secondKeyId]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toContain(`${secondKeyId} ("deploy") is revoked`);
    const list = await cli(["key", "list", "--workspace", "acme"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+NAME\s+PREFIX/m);
    expect(list.stdout).toMatch(/first key .* active/);
    expect(list.stdout).toMatch(new RegExp(`${secondKeyId}\\s+deploy .* revoked`));
    expect(list.stdout).not.toMatch(KEY);
  }, 120_000);

  it("the keys it printed authenticate (and the revoked one does not)", async () => {
    const config = loadConfig(env);
    const rt = await createRuntime(config, { queue: "database" });
    try {
      const p = await principalForKey(rt, keys.first);
      const ws = await rt.db.prisma.workspace.findUniqueOrThrow({ where: { id: p.workspaceId } });
      expect(ws).toMatchObject({ name: "acme", credits: 50n });
      await expect(principalForKey(rt, keys.second)).rejects.toMatchObject({ code: "invalid_api_key" });
      // Made and revoked on the server's machine: in the audit log, from the CLI, with no address.
      const entries = await rt.db.prisma.auditEntry.findMany({
        where: { targetId: secondKeyId },
        orderBy: { id: "asc" },
      });
      expect(entries.map((e) => [e.action, e.summary, e.ip])).toEqual([
        ["key.create", { name: "deploy", source: "cli" }, null],
        ["key.revoke", { name: "deploy", source: "cli" }, null],
      ]);
    } finally {
      await stopRuntime(rt);
    }
  }, 60_000);

  it("reports failures in one sentence with exit code 1", async () => {
    const dup = await cli(["workspace", "create", "--name", "acme"]);
    expect(dup.code).toBe(1);
    expectCleanError(dup);
    expect(dup.stderr).toContain('A workspace named "acme" already exists');
    const missing = await cli(["key", "list", "--workspace", "nobody"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No workspace is named "nobody"');
    expectCleanError(missing);
  }, 120_000);

  it("key create takes limits: --scopes, --expires, --cap; a bad scope is a usage error", async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const r = await cli([
      "key",
      "create",
      "--workspace",
      "acme",
      "--scopes",
      "rows:read,runs:write",
      "--expires",
      expires,
      "--cap",
      "5",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      scopes: ["rows:read", "runs:write"],
      expiresAt: expires,
      dailyCreditCap: 5,
      baseIds: null,
    });
    const bad = await cli(["key", "create", "--workspace", "acme", "--scopes", "rows:read,everything"]);
    expect(bad.code).toBe(64);
    expectCleanError(bad);
    expect(bad.stderr).toContain('"everything" is not a scope');
  }, 120_000);

  it("wrong usage exits 64 with the usage line, before touching the database", async () => {
    for (const args of [
      ["workspace", "create", "--name", "x", "--bogus"],
      ["key", "revoke", "--workspace", "acme"],
      ["frobnicate"],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(64);
      expectCleanError(r);
    }
    const help = await cli(["help"]);
    expect(help.code).toBe(0);
    for (const c of ["workspace create", "key create", "key list", "key revoke"]) expect(help.stdout).toContain(c);
  }, 120_000);
});

describe("the embedded database is busy while another process has it open", () => {
  it("the CLI says so clearly and exits 2", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cw-busy-"));
    const held = await openDatabase({ kind: "pglite", dataDir: dir });
    try {
      const r = await cli(["workspace", "create", "--name", "blocked"], { DATA_DIR: dir, DATABASE_URL: "" });
      expect(r.code).toBe(2);
      expectCleanError(r);
      expect(r.stderr).toContain(`in use by another process (pid ${process.pid})`);
      expect(r.stderr).toMatch(/Stop the server first/);
      const m = await cli([], { DATA_DIR: dir, DATABASE_URL: "" }, "lib/cli/migrate.ts");
      expect(m.code).toBe(2);
      expect(m.stderr).toContain("in use by another process");
    } finally {
      await held.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("npm run db:migrate", () => {
  it("applies migrations to a database that has none, then finds it up to date", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cw-migrate-"));
    try {
      // A bare cluster: a new data directory would be copied from the install's migrated template.
      const bare = new PGlite(path.join(dir, "pglite"));
      await bare.waitReady;
      await bare.close();
      const first = await cli([], { DATA_DIR: dir, DATABASE_URL: "" }, "lib/cli/migrate.ts");
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/applied \d{14}_/);
      const second = await cli([], { DATA_DIR: dir, DATABASE_URL: "" }, "lib/cli/migrate.ts");
      expect(second.stdout).toMatch(/up to date/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
