import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// The grid reads rows where its viewport is. A read the network drops, or the server fails, is
// tried again a moment later; a refusal stops the reads and says so. A cell that finished before
// the live stream connected is read again once it does.

const ROWS = 3_000;
// The failures these tests provoke show in the console.
test.use({ allowErrors: /ERR_CONNECTION_RESET|\b503\b/ });

test("a dropped read and a server error are tried again, and the rows still arrive", async ({ page, api }) => {
  const base = await api.createBase("Grid reads", [
    { name: "Name", type: "short-text", isPrimary: true },
    { name: "N", type: "number" },
  ]);
  await api.addRows(
    base.baseId,
    Array.from({ length: ROWS }, (_, i) => ({ Name: `Row ${i + 1}`, N: String(i + 1) })),
  );

  // The first two reads after the first page fail: one dropped, one answered 503.
  const failures: string[] = [];
  await page.route(`**/api/v1/bases/${base.baseId}/rows/query`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as { count?: boolean };
    if (body.count || failures.length >= 2) return route.continue();
    failures.push(failures.length === 0 ? "dropped" : "503");
    if (failures.length === 1) return route.abort("connectionreset");
    return route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "unavailable", message: "Try again." } }),
    });
  });

  await signIn(page, `/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Name")).toHaveText("Row 1");
  await expect(page.getByText(`${ROWS.toLocaleString("en")} rows`, { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(failures).toEqual(["dropped", "503"]);
  await grid(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(await cellAt(page, ROWS, "N")).toHaveText(String(ROWS));
  await expect(page.getByText("Could not load")).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/grid-reads-retried.png` });
});

test("a first read the server fails is tried again", async ({ page, api }) => {
  const base = await api.createBase("Grid first read", [{ name: "Name", type: "short-text", isPrimary: true }]);
  await api.addRows(
    base.baseId,
    Array.from({ length: 50 }, (_, i) => ({ Name: `Row ${i + 1}` })),
  );
  // The first page (the one that counts the rows) fails twice: a 503, then a dropped connection.
  let failed = 0;
  await page.route(`**/api/v1/bases/${base.baseId}/rows/query`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as { count?: boolean };
    if (!body.count || failed >= 2) return route.continue();
    if (failed++ === 0)
      return route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unavailable", message: "Try again." } }),
      });
    return route.abort("connectionreset");
  });
  await signIn(page, `/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Name")).toHaveText("Row 1", { timeout: 15_000 });
  await expect(page.getByText("50 rows", { exact: true })).toBeVisible();
  expect(failed).toBe(2);
  await expect(page.getByText("Could not load")).toHaveCount(0);
});

test("a read of rows added elsewhere that the server fails is tried again", async ({ page, api }) => {
  const base = await api.createBase("Grid tail", [{ name: "Name", type: "short-text", isPrimary: true }]);
  await api.addRows(base.baseId, [{ Name: "Row 1" }, { Name: "Row 2" }, { Name: "Row 3" }]);
  await signIn(page, `/bases/${base.baseId}`);
  await expect(page.locator('[data-live="live"]')).toBeVisible();
  await expect(page.getByText("3 rows", { exact: true })).toBeVisible();
  // The read of the end (it counts, from past the first row) fails once.
  let failed = 0;
  await page.route(`**/api/v1/bases/${base.baseId}/rows/query`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as { count?: boolean; offset?: number };
    if (!body.count || !body.offset || failed > 0) return route.continue();
    failed++;
    return route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "unavailable", message: "Try again." } }),
    });
  });
  await api.addRows(base.baseId, [{ Name: "Row 4" }, { Name: "Row 5" }]);
  await expect(await cellAt(page, 5, "Name")).toHaveText("Row 5", { timeout: 15_000 });
  expect(failed).toBe(1);
  await expect(page.getByText("Could not load")).toHaveCount(0);
});

test("a read the server refuses stops the reads and says why", async ({ page, api }) => {
  const base = await api.createBase("Grid refusal", [{ name: "Name", type: "short-text", isPrimary: true }]);
  await api.addRows(
    base.baseId,
    Array.from({ length: ROWS }, (_, i) => ({ Name: `Row ${i + 1}` })),
  );
  await page.route(`**/api/v1/bases/${base.baseId}/rows/query`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as { count?: boolean };
    if (body.count) return route.continue();
    return route.fulfill({
      status: 403,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "forbidden", message: "Not for you." } }),
    });
  });
  await signIn(page, `/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Name")).toHaveText("Row 1");
  await expect(page.getByText("Could not load the rows: Not for you.").first()).toBeVisible();
});

test("a cell that finished before the live stream connected still shows its value", async ({ page, api }) => {
  const base = await api.createBase("Unseen finish", [
    { name: "Company", type: "short-text", isPrimary: true },
    {
      name: "Products",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      tools: ["scrape-url"],
      instructions: "What does it sell?",
    },
  ]);
  const { rows } = await api.addRows(base.baseId, [{ Company: "Acme" }]);
  await expect
    .poll(
      async () =>
        (
          await api.call<{ cells: Record<string, { status?: string }> }>(
            "GET",
            `/api/v1/bases/${base.baseId}/rows/${rows[0].id}?expand=true`,
          )
        ).cells.Products?.status,
      { timeout: 30_000 },
    )
    .toBe("done");
  // The first page answers as it would have had it been read while the cell still ran: the event
  // that the cell finished went out before the grid's live stream existed.
  let first = true;
  await page.route(`**/api/v1/bases/${base.baseId}/rows/query`, async (route) => {
    if (!first) return route.continue();
    first = false;
    const response = await route.fetch();
    const body = (await response.json()) as { rows: { processing: boolean; cells: Record<string, unknown> }[] };
    body.rows[0].processing = true;
    body.rows[0].cells.Products = { value: "", status: "running" };
    await route.fulfill({ response, json: body });
  });
  await signIn(page, `/bases/${base.baseId}`);
  const products = await cellAt(page, 1, "Products");
  await expect(products).toContainText("Heat pumps", { timeout: 10_000 });
});
