import path from "node:path";
import http from "node:http";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRuntime, installRuntime, stopRuntime, type Runtime } from "../../lib/runtime.ts";
import { loadConfig } from "../../lib/config.ts";
import { startControl } from "../../lib/cli/control.ts";
import { createUser } from "../../lib/auth/users.ts";
import { hashPassword, verifyPassword } from "../../lib/auth/passwords.ts";
import { redeemPasswordReset } from "../../lib/auth/people.ts";
import { freshDatabaseTarget } from "../support/database.ts";

// `npm run cli -- password-reset-link <email>`: on its own when it can open the database, and,
// while a server holds the embedded database, by asking that server.

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const LINK = /^Set a new password: (http:\/\/127\.0\.0\.1:(\d+)\/reset-password\?token=([A-Za-z0-9_-]{43}))$/m;

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
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("error", reject);
    child.on("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cw-reset-"));
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
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

it("prints a one-hour link for a user's email, and refuses an unknown email", async () => {
  expect((await cli(["workspace", "create", "--name", "acme"])).code).toBe(0);
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const config = loadConfig({ ...env, PORT: String(port) });
  let rt: Runtime | undefined;
  let uninstall = () => {};
  try {
    rt = await createRuntime(config, { queue: "database" });
    uninstall = installRuntime(rt);
    const user = await createUser(rt.db.prisma, {
      email: "ada@example.com",
      passwordHash: await hashPassword("the old password"),
    });
    // While this process holds the database, the CLI asks it (embedded) or writes itself (PostgreSQL).
    const control = startControl(config);
    if (control) server.on("request", (req, res) => void (control(req, res) || res.writeHead(404).end()));
    const r = await cli(["password-reset-link", "ADA@example.com"]);
    expect(r.code, r.stderr).toBe(0);
    const [, , linkPort, token] = LINK.exec(r.stdout) ?? [];
    expect(Number(linkPort)).toBe(control ? port : 3000);
    await redeemPasswordReset(rt, token, "the new password");
    const row = await rt.db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(row.passwordHash, "the new password")).toBe(true);

    const unknown = await cli(["password-reset-link", "nobody@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No user has the email nobody@example\.com/);
    const missing = await cli(["password-reset-link"]);
    expect(missing.code).not.toBe(0);
  } finally {
    uninstall();
    if (rt) await stopRuntime(rt);
    await new Promise((r) => server.close(r));
  }
  const json = await cli(["password-reset-link", "ada@example.com", "--json"]);
  expect(json.code, json.stderr).toBe(0);
  expect(JSON.parse(json.stdout)).toMatchObject({
    url: expect.stringContaining("/reset-password?token="),
    expiresAt: expect.any(String),
  });
}, 600_000);
