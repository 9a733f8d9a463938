import path from "node:path";
import http from "node:http";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRuntime, installRuntime, stopRuntime, type Runtime } from "../../lib/runtime.ts";
import { loadConfig } from "../../lib/config.ts";
import { redeemSignInToken } from "../../lib/auth/sign-in-link.ts";
import { CONTROL_FILE, startControl } from "../../lib/cli/control.ts";
import { freshDatabaseTarget } from "../support/database.ts";

// `npm run cli -- sign-in-link` as users run it: on its own when it can open the database, and,
// while a server holds the embedded database, by asking that server over its control file.

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const LINK = /^Sign in: (http:\/\/127\.0\.0\.1:(\d+)\/sign-in\?token=([A-Za-z0-9_-]{43}))$/m;

let dataDir: string;
let env: Record<string, string>;
let drop: () => Promise<void> = async () => undefined;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, "lib/cli/index.ts", ...args], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-link-"));
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: "3000",
  };
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await freshDatabaseTarget();
    drop = fresh.drop;
    env.DATABASE_URL = (fresh.target as { url: string }).url;
  }
});
afterAll(async () => {
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it("refuses clearly before any workspace exists, then prints a link on its own", async () => {
  const none = await cli(["sign-in-link"]);
  expect(none.code).toBe(1);
  expect(none.stderr).toMatch(/^error: No workspace exists yet/m);
  const made = await cli(["workspace", "create", "--name", "acme"]);
  expect(made.code, made.stderr).toBe(0);
  const r = await cli(["sign-in-link"]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split("\n")).toHaveLength(1);
  expect(r.stdout).toMatch(LINK);
  const json = await cli(["sign-in-link", "--workspace", "acme", "--json"]);
  expect(JSON.parse(json.stdout)).toMatchObject({
    url: expect.stringContaining("/sign-in?token="),
    expiresAt: expect.any(String),
  });
}, 120_000);

it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  "asks the running server while it holds the embedded database",
  async () => {
    // This process plays `npm start`: it holds DATA_DIR and answers on the control channel.
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const config = loadConfig({ DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port) });
    let rt: Runtime | undefined;
    let uninstall = () => {};
    try {
      rt = await createRuntime(config, { queue: "database" });
      uninstall = installRuntime(rt);
      const control = startControl(config)!;
      server.on("request", (req, res) => {
        if (!control(req, res)) res.writeHead(404).end();
      });
      expect(statSync(path.join(dataDir, CONTROL_FILE)).mode & 0o077).toBe(0);
      const r = await cli(["sign-in-link", "--workspace", "acme"]);
      expect(r.code, r.stderr).toBe(0);
      const [, , linkPort, token] = LINK.exec(r.stdout)!;
      expect(Number(linkPort)).toBe(port);
      const principal = await redeemSignInToken(rt.db.prisma, token);
      expect(principal.workspaceId).toBe(
        (await rt.db.prisma.workspace.findUniqueOrThrow({ where: { name: "acme" } })).id,
      );
      // Without the secret the channel answers like a path that does not exist.
      const forged = await fetch(`http://127.0.0.1:${port}/_cellwright/sign-in-link`, {
        method: "POST",
        headers: { "x-cellwright-control": "guess" },
      });
      expect(forged.status).toBe(404);
    } finally {
      uninstall();
      if (rt) await stopRuntime(rt);
      await new Promise((r) => server.close(r));
    }
  },
  120_000,
);
