import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// The grid reads rows where its viewport is. A read the network drops, or the server fails, is
// tried again a moment later; a refusal stops the reads and says so.

const ROWS = 3_000;
// The failures these tests provoke show in the console.
test.use({ allowErrors: /ERR_CONNECTION_RESET|\b503\b/ });

test("a dropped read and a server error are tried again, and the rows still arrive", async ({ page, api }) => {
  const base = await api.createBase("Grid reads", [
    { name: "Name", type: "short-text", isPrimary: true },
    { name: "N", type: "number" },
  ]);
  await api.addRows(base.baseId, Array.from({ length: ROWS }, (_, i) => ({ Name: `Row ${i + 1}`, N: String(i + 1) })));

  // The first two reads after the first page fail: one dropped, one answered 503.
  const failures: string[] = [];
  await page.route(`**/api/v1/bases/${base.baseId}/rows/query`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as { count?: boolean };
    if (body.count || failures.length >= 2) return route.continue();
    failures.push(failures.length === 0 ? "dropped" : "503");
    if (failures.length === 1) return route.abort("connectionreset");
    return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: { code: "unavailable", message: "Try again." } }) });
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

test("a read the server refuses stops the reads and says why", async ({ page, api }) => {
  const base = await api.createBase("Grid refusal", [{ name: "Name", type: "short-text", isPrimary: true }]);
  await api.addRows(base.baseId, Array.from({ length: ROWS }, (_, i) => ({ Name: `Row ${i + 1}` })));
  await page.route(`**/api/v1/bases/${base.baseId}/rows/query`, async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}") as { count?: boolean };
    if (body.count) return route.continue();
    return route.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify({ error: { code: "forbidden", message: "Not for you." } }) });
  });
  await signIn(page, `/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Name")).toHaveText("Row 1");
  await expect(page.getByText("Could not load the rows: Not for you.").first()).toBeVisible();
});
