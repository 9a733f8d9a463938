// The vitest suites in two passes: every file in parallel, then the *.alone.test.ts files, which
// measure responsiveness, one at a time on an otherwise idle machine.
import { spawnSync } from "node:child_process";

const vitest = (env) =>
  spawnSync("npx", ["--no-install", "vitest", "run", "--config", "test/vitest.config.ts"], {
    stdio: "inherit",
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
  }).status ?? 1;

export function runVitest(env) {
  const status = vitest(env);
  if (status !== 0) return status;
  console.log("\n== suites that run alone (*.alone.test.ts)");
  return vitest({ ...env, VITEST_ALONE: "1" });
}
