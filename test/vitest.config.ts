import { defineConfig } from "vitest/config";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
// Files named *.alone.test.ts measure responsiveness, which other test files sharing the cores
// would distort: they run by themselves, after the rest (VITEST_ALONE=1, see test/run-all.mjs).
const alone = process.env.VITEST_ALONE === "1";

export default defineConfig({
  root,
  resolve: { alias: { "@": root } },
  test: {
    include: alone ? ["test/**/*.alone.test.ts"] : ["test/**/*.test.ts"],
    exclude: alone ? [] : ["**/node_modules/**", "test/**/*.alone.test.ts"],
    environment: "node",
    // Upper bounds for a stuck test, not measures of speed: on a busy machine (2 cores shared with
    // other runs) a fresh database per file and a dozen engine retries take several times as long.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file gets its own PGlite database; two workers fit the 2-core machines.
    pool: "forks",
    maxWorkers: alone ? 1 : 2,
  },
});
