// `npm test`: the unit and API suites on PGlite, then the e2e suite when Chromium is present.
import { spawnSync } from "node:child_process";
import { runVitest } from "./run-vitest.mjs";
import { existsSync } from "node:fs";

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } }).status ?? 1;

// Suites that start the real server share one production build, made here once: parallel test
// files must never build at the same time.
const built = spawnSync("npx", ["--no-install", "tsx", "lib/cli/start.ts", "--build-only"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: ".next-test" },
}).status;
if (built !== 0) process.exit(built ?? 1);

const { TEST_DATABASE_URL: _ignored, ...rest } = process.env;
let status = await runVitest(rest);
if (status !== 0) process.exit(status);

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (process.env.SKIP_E2E === "1") {
  console.log("\n== e2e suite skipped: SKIP_E2E=1");
} else if (!existsSync(chromium)) {
  console.log(`\n== e2e suite SKIPPED: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
} else if (existsSync("e2e/playwright.config.ts")) {
  status = run("npx", ["--no-install", "playwright", "test", "--config", "e2e/playwright.config.ts"]);
}
process.exit(status);
