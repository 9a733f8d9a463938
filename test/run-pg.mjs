// `npm run test:pg`: the same unit and API suites against PostgreSQL (a fresh database per file).
import { spawnSync } from "node:child_process";

if (!process.env.TEST_DATABASE_URL) {
  console.log("== PostgreSQL suites SKIPPED: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)");
  process.exit(0);
}
const result = spawnSync("npx", ["--no-install", "vitest", "run", "--config", "test/vitest.config.ts"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
process.exit(result.status ?? 1);
