// `npm run test:pg`: the same unit and API suites against PostgreSQL (a fresh database per file).
import { spawnSync } from "node:child_process";
import { runVitest } from "./run-vitest.mjs";

if (!process.env.TEST_DATABASE_URL) {
  console.log("== PostgreSQL suites SKIPPED: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)");
  process.exit(0);
}
// Suites that start the real server share one production build, made here once: parallel test
// files must never build at the same time.
const built = spawnSync("npx", ["--no-install", "tsx", "lib/cli/start.ts", "--build-only"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: ".next-test" },
}).status;
if (built !== 0) process.exit(built ?? 1);

process.exit(await runVitest(process.env));
