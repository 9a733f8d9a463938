import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// A 100,000-row base opens quickly and scrolls to the end: rows and columns are virtualised,
// the rows around the viewport are read first wherever it jumps, and the rest arrive in pages
// behind them.

const ROWS = 100_000;
const CHUNK = 10_000;

test("a 100,000-row base opens quickly, stays virtual, and renders its last row", async ({ page, api }) => {
  test.setTimeout(240_000);
  const columns = [
    { name: "Name", type: "short-text", isPrimary: true },
    { name: "Seq", type: "number" },
    ...Array.from({ length: 10 }, (_, i) => ({ name: `Field ${i + 1}`, type: "short-text" })),
  ];
  const base = await api.createBase("Hundred thousand", columns);
  const seedStart = Date.now();
  for (let start = 0; start < ROWS; start += CHUNK) {
    const rows = Array.from({ length: CHUNK }, (_, i) => ({
      Name: `Row ${start + i + 1}`,
      Seq: String(start + i + 1),
      "Field 1": `f${(start + i) % 97}`,
    }));
    await api.addRows(base.baseId, rows);
  }
  console.log(`seeded ${ROWS} rows in ${Date.now() - seedStart} ms`);

  await signIn(page);
  const openStart = Date.now();
  await page.goto(`/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Name")).toHaveText("Row 1");
  const firstPaint = Date.now() - openStart;
  console.log(`first rows visible after ${firstPaint} ms`);
  expect(firstPaint).toBeLessThan(10_000);

  // The scrollbar spans the whole base at once; only the rows and columns in view are in the DOM.
  await expect(grid(page)).toHaveAttribute("aria-rowcount", String(ROWS + 1));
  expect(await grid(page).locator("[role=row]").count()).toBeLessThan(80);
  expect(await grid(page).locator("[role=columnheader]").count()).toBeLessThan(15);

  // A jump far ahead reads the rows there first, long before the background fill reaches them.
  const reads: number[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/rows/query"))
      reads.push((JSON.parse(r.postData() ?? "{}") as { offset?: number }).offset ?? 0);
  });
  await grid(page).evaluate((el) => el.scrollTo({ top: (60_000 - 1) * 36 }));
  await expect(await cellAt(page, 60_000, "Name")).toHaveText("Row 60000", { timeout: 10_000 });
  await expect(await cellAt(page, 60_000, "Seq")).toHaveText("60000");
  expect(reads.filter((offset) => offset > 30_000 && offset < 59_000)).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/grid-100k-jump.png` });
  await grid(page).evaluate((el) => el.scrollTo({ top: 0 }));

  await expect(page.getByText("100,000 rows", { exact: true })).toBeVisible({ timeout: 150_000 });
  console.log(`all rows loaded after ${Date.now() - openStart} ms`);

  await grid(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const last = await cellAt(page, ROWS, "Name");
  await expect(last).toHaveText(`Row ${ROWS}`);
  await expect(await cellAt(page, ROWS, "Seq")).toHaveText(String(ROWS));

  // Scrolling right reaches the last column, and keyboard navigation follows the focus.
  await last.click();
  await page.keyboard.press("End");
  await expect(await cellAt(page, ROWS, "Field 10")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Control+Home");
  await expect(await cellAt(page, 1, "Name")).toHaveText("Row 1");
  await page.screenshot({ path: `${ARTIFACTS}/grid-100k.png` });
});
