// `npm start`: builds the app when the build is missing or older than the sources, then serves
// the UI and API from this process. Migrations, seeding and the workers start inside the server
// (instrumentation.ts → boot).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { loadConfig, type Config } from "../config.ts";
import { serve } from "./server.ts";
import { secretsKeyProblem } from "../secrets/key.ts";
import { acquireDataDirLock } from "../db/data-dir-lock.ts";
import { createEmbeddedCluster, embeddedTemplate } from "../db/embedded-cluster.ts";

const root = process.cwd();

function newestSource(): number {
  let newest = 0;
  const walk = (p: string) => {
    const s = statSync(p);
    if (s.isDirectory()) {
      if (/^(node_modules|generated|\.next.*)$/.test(path.basename(p))) return;
      for (const name of readdirSync(p)) walk(path.join(p, name));
    } else newest = Math.max(newest, s.mtimeMs);
  };
  for (const p of ["app", "components", "lib", "public", "next.config.ts", "package-lock.json", "instrumentation.ts"]) {
    if (existsSync(path.join(root, p))) walk(path.join(root, p));
  }
  return newest;
}

const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
if (!existsSync(buildId) || statSync(buildId).mtimeMs < newestSource()) {
  console.log("[cellwright] building the app (first start or sources changed)…");
  const build = spawnSync("npx", ["--no-install", "next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The test runner builds once up front, so that parallel suites never build at the same time, and
// makes the embedded database's template that every test server's data directory is copied from.
if (process.argv.includes("--build-only")) {
  await embeddedTemplate().catch((e) =>
    console.warn(`[cellwright] no embedded database template: ${(e as Error).message}`),
  );
  process.exit(0);
}

process.env.NEXT_TELEMETRY_DISABLED = "1";
let config: Config;
try {
  config = loadConfig(process.env);
} catch (e) {
  console.error(`[cellwright] ${(e as Error).message}`);
  process.exit(1);
}
const keyProblem = secretsKeyProblem(config);
if (keyProblem) {
  console.error(`[cellwright] ${keyProblem}`);
  process.exit(1);
}
// A first start creates the embedded database while Next.js prepares (boot awaits it). A directory
// another process holds is left alone here: the boot says so.
if (!config.databaseUrl) {
  try {
    mkdirSync(config.dataDir, { recursive: true });
    acquireDataDirLock(config.dataDir);
    createEmbeddedCluster(config.dataDir).catch(() => undefined);
  } catch {
    // reported by the boot
  }
}
try {
  await serve(root, config);
} catch (e) {
  // Not listening is fatal: say why in one line and exit, rather than run on unreachable.
  const code = (e as { code?: string }).code;
  console.error(
    code === "EADDRINUSE"
      ? `[cellwright] cannot listen on ${config.host}:${config.port}: the port is in use (set PORT to another one).`
      : `[cellwright] the server could not start: ${(e as Error).message}`,
  );
  process.exit(1);
}
