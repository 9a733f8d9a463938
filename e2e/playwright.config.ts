import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { API_KEY } from "./support/env";

// The e2e suite runs the production build (`next build`, then `next start`) on a fresh data
// directory with a known API key, in Debian's Chromium. E2E_BASE_URL points it at a server
// that is already running instead (for example `next dev` while working on the UI).

const PORT = Number(process.env.E2E_PORT ?? 3107);
const LLM_PORT = PORT + 1;
// The fake world's search and company sites (test/support/fake-world.ts), run by the fake LLM's process.
const WORLD_PORT = PORT + 2;
const external = process.env.E2E_BASE_URL;
// Workers load this file again; the environment carries the first choice over to them.
if (!external) process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "cellwright-e2e-"));
const root = path.resolve(import.meta.dirname, "..");

export default defineConfig({
  testDir: ".",
  // The printed sign-in link needs the data directory of the server this file starts.
  testIgnore: external ? ["**/sign-in-link.spec.ts"] : [],
  outputDir: "../test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // CI gives a test one more try: the run spec races live updates against a 300-cell run on a
  // 2-core machine, and fails there now and then for timing alone.
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  reporter: [["list"]],
  globalTeardown: "./support/teardown.ts",
  use: {
    baseURL: external ?? `http://127.0.0.1:${PORT}`,
    viewport: { width: 1440, height: 900 },
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: external
    ? undefined
    : [
        {
          // The fake LLM answers cell attempts and scripted assistant turns over HTTP (see the file).
          command: `node e2e/support/fake-llm-server.ts --port ${LLM_PORT} --world-port ${WORLD_PORT}`,
          cwd: root,
          url: `http://127.0.0.1:${LLM_PORT}/v1/models`,
          timeout: 30_000,
          reuseExistingServer: false,
        },
        {
          // `npm start`: it builds only when the shared test build is missing or stale.
          command: `npm start --silent`,
          cwd: root,
          url: `http://127.0.0.1:${PORT}/api/health`,
          timeout: 240_000,
          reuseExistingServer: false,
          stdout: "pipe",
          stderr: "pipe",
          env: {
            NEXT_TELEMETRY_DISABLED: "1",
            // The test build shared with the server-process suites; a developer's own .next is left alone.
            NEXT_DIST_DIR: ".next-test",
            PORT: String(PORT),
            DATA_DIR: process.env.E2E_DATA_DIR!,
            API_KEY,
            // 127.0.0.0/8: the fake world's company sites, one loopback address each.
            ALLOWED_PRIVATE_HOSTS: "127.0.0.0/8,::1",
            SEARCH_PROVIDER: "searxng",
            SEARCH_BASE_URL: `http://127.0.0.1:${WORLD_PORT}`,
            SEARCH_MAX_RESULTS: "10",
            // The suite's fixtures call the API far faster than a person would.
            API_RATE_LIMIT: "100000",
            API_RATE_BURST: "100000",
            UI_AUTO_LOGIN: "false",
            // A grid body past 4,000,000 px (111,000 rows) is scaled: grid-scaled.spec.ts reaches it
            // with 150,000 rows, while scale.spec.ts's 100,000 stay below it, unscaled.
            GRID_MAX_SCROLL_PX: "4000000",
            OPENAI_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
            OPENAI_API_KEY: "fake",
            AI_MODEL: "openai:fake-model",
            AI_MAX_ATTEMPTS: "1",
            AI_RETRY_BASE_MS: "50",
          },
        },
      ],
});
