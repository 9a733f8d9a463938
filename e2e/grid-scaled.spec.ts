import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// A base taller than the grid lays out (GRID_MAX_SCROLL_PX: 4,000,000 px in this suite, as a
// million rows of 36 px are past what Chromium lays out): the scroll range is capped, every scroll
// position stands for its share of the rows, and the last row is reached by the scrollbar and by
// the keyboard.

const ROWS = 150_000;
const MAX = 4_000_000;
const ROW = 36;
const HEADER = 36;

/** The 1-based number of the first loaded row whose bottom is below the header, and its top. */
const firstRowInView = (page: import("@playwright/test").Page) =>
  grid(page).evaluate((el, header) => {
    const top = el.getBoundingClientRect().top + header;
    const rows = [...el.querySelectorAll('[role=row][aria-rowindex]:not([aria-busy]):not([aria-rowindex="1"])')]
      .map((r) => ({ n: Number(r.getAttribute("aria-rowindex")) - 1, box: r.getBoundingClientRect() }))
      .filter((r) => r.box.bottom > top + 1)
      .sort((a, b) => a.box.top - b.box.top);
    return rows[0] ? { n: rows[0].n, offset: Math.round(rows[0].box.top - top) } : null;
  }, HEADER);

test("a base past the grid's height cap scrolls and keys to its last row", async ({ page, api }) => {
  test.setTimeout(300_000);
  const base = await api.createBase("Past the cap", [
    { name: "Name", type: "short-text", isPrimary: true },
    { name: "Seq", type: "number" },
  ]);
  const lines = ["Name,Seq"];
  for (let i = 1; i <= ROWS; i++) lines.push(`Row ${i},${i}`);
  const imported = await api.importCsv(base.baseId, `${lines.join("\n")}\n`, 240_000);
  expect(imported.rowsCreated).toBe(ROWS);

  await signIn(page);
  await page.goto(`/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Name")).toHaveText("Row 1");
  await expect(grid(page)).toHaveAttribute("aria-rowcount", String(ROWS + 1));

  // The body is laid out at the cap, not at 150,000 × 36 px.
  const size = await grid(page).evaluate((el) => ({ height: el.scrollHeight, view: el.clientHeight }));
  expect(size.height).toBe(MAX);
  const fullRange = HEADER + ROWS * ROW - size.view;
  const scrollRange = MAX - size.view;

  // A scroll position shows the rows of its share of the base: at 60% of the scrollbar, the row at
  // 60% of the full height, not the row 60% of the capped height would hold.
  for (const share of [0.6, 0.25]) {
    await grid(page).evaluate((el, top) => el.scrollTo({ top }), Math.round(scrollRange * share));
    const expected = Math.floor((Math.round(scrollRange * share) * (fullRange / scrollRange) - HEADER) / ROW) + 1;
    await expect
      .poll(async () => (await firstRowInView(page))?.n, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(expected - 1);
    const first = await firstRowInView(page);
    expect(Math.abs(first!.n - expected)).toBeLessThanOrEqual(1);
    expect(Math.abs(first!.n - Math.floor((scrollRange * share) / ROW))).toBeGreaterThan(1_000);
    await expect(await cellAt(page, first!.n, "Seq")).toHaveText(String(first!.n));
  }
  await page.screenshot({ path: `${ARTIFACTS}/grid-scaled-60.png` });

  // The scrollbar's bottom is the last row, whole, at the bottom of the view.
  await grid(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const last = await cellAt(page, ROWS, "Name");
  await expect(last).toHaveText(`Row ${ROWS}`, { timeout: 15_000 });
  const bottoms = await grid(page).evaluate(
    (el, n) => ({
      view: el.getBoundingClientRect().bottom,
      row: el.querySelector(`[role=row][aria-rowindex="${n + 1}"]`)!.getBoundingClientRect().bottom,
    }),
    ROWS,
  );
  expect(Math.abs(bottoms.row - bottoms.view)).toBeLessThanOrEqual(20);
  await page.screenshot({ path: `${ARTIFACTS}/grid-scaled-bottom.png` });

  // The keyboard, once every row is loaded (the keys move among loaded rows): Ctrl+Home to the
  // first row, Ctrl+End to the last, arrows and Page Up from there, each kept in view.
  await expect(page.getByText("150,000 rows", { exact: true })).toBeVisible({ timeout: 200_000 });
  await (await cellAt(page, ROWS, "Name")).click();
  await page.keyboard.press("Control+Home");
  await expect(await cellAt(page, 1, "Name")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => grid(page).evaluate((el) => el.scrollTop)).toBe(0);
  // Ctrl+End: the last row's last column, as in a spreadsheet.
  await page.keyboard.press("Control+End");
  await expect(await cellAt(page, ROWS, "Seq")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => grid(page).evaluate((el) => el.scrollTop + el.clientHeight)).toBeGreaterThanOrEqual(MAX - 1);
  await expect(await cellAt(page, ROWS, "Seq")).toBeInViewport();
  await page.keyboard.press("ArrowUp");
  await expect(await cellAt(page, ROWS - 1, "Seq")).toHaveAttribute("aria-selected", "true");
  for (let i = 0; i < 3; i++) await page.keyboard.press("PageUp");
  const focused = grid(page).locator('[role=gridcell][aria-selected="true"]');
  await expect(focused).toHaveCount(1);
  const row = await focused.evaluate((el) => Number(el.closest("[role=row]")!.getAttribute("aria-rowindex")) - 1);
  expect(row).toBeLessThan(ROWS - 40);
  await expect(focused).toBeInViewport();
  await expect(await cellAt(page, row, "Seq")).toHaveText(String(row));
  await page.screenshot({ path: `${ARTIFACTS}/grid-scaled-keys.png` });
});
