// npm run bench:ui — the grid in Chromium on a base of BENCH_ROWS rows (default 100,000, imported as a CSV file),
// served by the production server as npm start runs it, on PGlite (BENCH_DATABASE_URL, an admin URL, for
// PostgreSQL: a fresh database, dropped after): time from navigation to the first rows (performance API), frame times
// (a requestAnimationFrame sampler) while scrolling top to bottom in 10 s in 200 steps and how many
// steps showed no loaded row, the JS heap (CDP Performance.getMetrics), and frame times while
// 1,000 cells a second change through the API. Floor: a plain-DOM virtual list of the same rows,
// measured the same way in the same run.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium, type Browser, type Page } from "@playwright/test";
import { call, ensureBuild, startServer, type BenchServer } from "./rows-server.ts";
import { mb, table } from "./support.ts";
import { serveFloor } from "./ui-floor.ts";
import { probeScript } from "./ui-probe.ts";
import { FIELDS, seedBase } from "./ui-seed.ts";
import { freshPostgres } from "./rows-floor.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const STEPS = 200;
const SCROLL_MS = 10_000;
const LIVE_MS = 5_000;
/** How long to wait for every row to load before scrolling again. */
const LOAD_WAIT_MS = 90_000;
/** 1,000 cells a second: 100 rows of one changed cell every 100 ms, among the first rows. */
const LIVE_EVERY_MS = 100;
const LIVE_ROWS = 100;
const LIVE_SPREAD = 200;
const JUMP_AT = 0.6;
const GOALS = { firstRowsMs: 1_500, p95Ms: 33, heapBytes: 300 * 1024 * 1024 };

interface Figures {
  firstRowsMs: number;
  /** Right after the first rows, a jump to JUMP_AT of the height: time until loaded rows are in view. */
  jumpMs: number;
  scroll: { p95: number; max: number; blank: number; seen: number; settleMs: number };
  /** The same scroll once every row is loaded (null when the rows did not finish loading). */
  loadedP95: number | null;
  liveP95: number;
  liveMax: number;
  heap: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

/** Samples the page's used JS heap every half second; `stop` returns the peak. */
async function heapSampler(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  let peak = 0;
  const sample = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    peak = Math.max(peak, metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0);
  };
  const timer = setInterval(() => void sample().catch(() => undefined), 500);
  return {
    async stop() {
      clearInterval(timer);
      await sample();
      return peak;
    },
  };
}

/** Navigates, then runs the scroll and the live phase; `live` changes cells while the frames are sampled. */
async function measure(page: Page, url: string, live: (ms: number) => Promise<void>): Promise<Figures> {
  await page.goto(url);
  const heap = await heapSampler(page);
  await page.waitForFunction(() => (window as unknown as { __firstRows: number | null }).__firstRows !== null, null, {
    timeout: 60_000,
  });
  const firstRowsMs = await page.evaluate(() => (window as unknown as { __firstRows: number }).__firstRows);
  const jumpMs = await page.evaluate((at) => (window as any).__bench.jump(at), JUMP_AT);
  await page.evaluate(() => (window as any).__bench.toTop());
  await sleep(500);
  const s = await page.evaluate(([steps, ms]) => (window as any).__bench.scroll(steps, ms), [STEPS, SCROLL_MS]);
  await page.evaluate(() => (window as any).__bench.toTop());
  await sleep(1_000);
  const [gaps] = await Promise.all([
    page.evaluate((ms) => (window as any).__bench.frames(ms), LIVE_MS) as Promise<number[]>,
    live(LIVE_MS),
  ]);
  const loaded = await page
    // biome-ignore lint/performance/useDomNodeTextContent: only rendered text counts; textContent also holds inline scripts.
    .waitForFunction(() => !/Loading/.test(document.body.innerText), null, { timeout: LOAD_WAIT_MS })
    .then(
      async () =>
        (await page.evaluate(([steps, ms]) => (window as any).__bench.scroll(steps, ms), [STEPS, SCROLL_MS]))
          .gaps as number[],
      () => null,
    );
  return {
    loadedP95: loaded && quantile(loaded, 0.95),
    firstRowsMs,
    jumpMs,
    scroll: {
      p95: quantile(s.gaps, 0.95),
      max: Math.max(...s.gaps),
      blank: s.blank,
      seen: s.seen,
      settleMs: s.settleMs,
    },
    liveP95: quantile(gaps, 0.95),
    liveMax: Math.max(...gaps),
    heap: await heap.stop(),
  };
}

/**
 * Changes LIVE_ROWS cells every LIVE_EVERY_MS for `ms`, a few requests in flight so that a slow
 * answer does not lower the rate; returns how many cells changed and at what rate.
 */
async function changeCells(server: BenchServer, key: string, baseId: string, ids: string[], ms: number) {
  const t0 = Date.now();
  const inFlight = new Set<Promise<unknown>>();
  let n = 0;
  for (let tick = t0; tick < t0 + ms; tick += LIVE_EVERY_MS) {
    const rows = Array.from({ length: LIVE_ROWS }, () => {
      n++;
      return { id: ids[(n * 7) % LIVE_SPREAD], cells: { [`Field ${1 + (n % FIELDS)}`]: `live ${n}` } };
    });
    if (inFlight.size >= 4) await Promise.race(inFlight);
    const sent = call(server, key, "POST", `/api/v1/bases/${baseId}/update-rows`, { rows }).finally(() =>
      inFlight.delete(sent),
    );
    inFlight.add(sent);
    const wait = tick + LIVE_EVERY_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inFlight);
  return { cells: n, perSecond: n / ((Date.now() - t0) / 1000) };
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(probeScript);
  return context.newPage();
}

ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "cw-bench-ui-"));
const key = `cw_${randomBytes(24).toString("hex")}`;
const pgdb = process.env.BENCH_DATABASE_URL ? await freshPostgres(process.env.BENCH_DATABASE_URL) : undefined;
const server = await startServer({
  DATA_DIR: dataDir,
  API_KEY: key,
  UI_AUTO_LOGIN: "false",
  ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
});
const floorServer = await serveFloor(ROWS, 2 + FIELDS);
const browser = await chromium.launch({
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
});
try {
  const t0 = performance.now();
  const { baseId, ids } = await seedBase(server, key, ROWS, LIVE_SPREAD);
  console.log(`imported ${ROWS.toLocaleString()} rows in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  // What the grid's loader waits for: a page read at the top and at JUMP_AT of the base (median of 3).
  const pageMs = async (offset: number) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await call(server, key, "POST", `/api/v1/bases/${baseId}/rows/query`, { limit: 100, offset, expand: true });
      times.push(performance.now() - t);
    }
    return quantile(times, 0.5).toFixed(0);
  };
  const deep = Math.floor(ROWS * JUMP_AT);
  console.log(`Query Rows, 100 rows: at offset 0 ${await pageMs(0)} ms, at offset ${deep} ${await pageMs(deep)} ms`);

  const floorPage = await newPage(browser);
  const floor = await measure(floorPage, `${floorServer.url}?live=1`, (ms) => sleep(ms));
  await floorPage.context().close();

  const page = await newPage(browser);
  await page.goto(`${server.url}/sign-in?next=/`);
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
  let changed = { cells: 0, perSecond: 0 };
  const grid = await measure(
    page,
    `${server.url}/bases/${baseId}`,
    async (ms) => void (changed = await changeCells(server, key, baseId, ids, ms)),
  );
  // The last value written to the first row must reach the screen: live updates still arrive.
  await page.evaluate(() => (window as any).__bench.toTop());
  const lastOfRow1 = Array.from({ length: changed.cells }, (_, i) => i + 1)
    .filter((n) => (n * 7) % LIVE_SPREAD === 0)
    .pop();
  const liveArrived = lastOfRow1
    ? await page
        .waitForFunction(
          ([n, col]) => (window as any).__bench.cell(1, col) === `live ${n}`,
          [lastOfRow1, 3 + (lastOfRow1 % FIELDS)] as const,
          { timeout: 10_000 },
        )
        .then(
          () => true,
          () => false,
        )
    : false;

  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const met = (ok: boolean) => (ok ? "met" : "MISSED");
  console.log(
    `\nbench:ui — the grid on ${ROWS.toLocaleString()} rows (${pgdb ? "PostgreSQL" : "PGlite"}) in Chromium, against a plain-DOM virtual list (floor)\n`,
  );
  console.log(
    table([
      ["measure", "grid", "floor", "goal", ""],
      [
        "navigation to first rows visible",
        ms(grid.firstRowsMs),
        ms(floor.firstRowsMs),
        `< ${ms(GOALS.firstRowsMs)}`,
        met(grid.firstRowsMs < GOALS.firstRowsMs),
      ],
      [
        `jump to ${JUMP_AT * 100}% of the base right after: loaded rows in view after`,
        ms(grid.jumpMs),
        ms(floor.jumpMs),
        "",
        "",
      ],
      [
        `scroll top to bottom in ${SCROLL_MS / 1000} s: frame time p95`,
        ms(grid.scroll.p95),
        ms(floor.scroll.p95),
        `< ${GOALS.p95Ms} ms`,
        met(grid.scroll.p95 < GOALS.p95Ms),
      ],
      ["  frame time max", ms(grid.scroll.max), ms(floor.scroll.max), "", ""],
      [
        "  frame time p95, the same scroll once every row is loaded",
        grid.loadedP95 === null ? "not loaded" : ms(grid.loadedP95),
        floor.loadedP95 === null ? "" : ms(floor.loadedP95),
        "",
        "",
      ],
      [
        `  steps with no loaded row in view (of ${STEPS})`,
        grid.scroll.blank,
        floor.scroll.blank,
        "few",
        met(grid.scroll.blank <= STEPS / 20),
      ],
      ["  distinct rows seen loaded along the way", grid.scroll.seen, floor.scroll.seen, "", ""],
      [
        "  after the last step, loaded rows at the bottom in",
        ms(grid.scroll.settleMs),
        ms(floor.scroll.settleMs),
        "< 1000 ms",
        met(grid.scroll.settleMs < 1_000),
      ],
      [
        "JS heap, peak (CDP JSHeapUsedSize)",
        mb(grid.heap),
        mb(floor.heap),
        `< ${mb(GOALS.heapBytes)}`,
        met(grid.heap < GOALS.heapBytes),
      ],
      [
        `1,000 cells/s changing for ${LIVE_MS / 1000} s: frame time p95`,
        ms(grid.liveP95),
        ms(floor.liveP95),
        `< ${GOALS.p95Ms} ms`,
        met(grid.liveP95 < GOALS.p95Ms),
      ],
      ["  frame time max", ms(grid.liveMax), ms(floor.liveMax), "", ""],
      ["  the last change shown on screen", liveArrived ? "yes" : "no", "", "yes", met(liveArrived)],
    ]),
  );
  console.log(
    `\n${changed.cells.toLocaleString()} cells changed through Update Rows during the live phase, ${changed.perSecond.toFixed(0)} a second.`,
  );
} finally {
  await browser.close();
  await floorServer.close();
  await server.stop();
  await pgdb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
