import { expect, signIn, test } from "./support/fixtures";

// The API reference at /docs: linked from the app's header, rendered from the generated OpenAPI
// document by the bundled viewer (no CDN), listing the endpoints.

test("the header links to /docs, which renders the API reference with its endpoints", async ({ page }) => {
  await signIn(page);
  await page.goto("/");
  await page.getByRole("link", { name: "API docs" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "Cellwright API" }).first()).toBeVisible({ timeout: 30_000 });
  // Every tag of the document is a group of the sidebar; the first is open.
  for (const name of ["Get Rows", "Add Rows", "Update Rows"])
    await expect(page.getByRole("link", { name: new RegExp(`^${name} HTTP Method`) })).toBeVisible();
  for (const tag of ["Bases", "Columns", "Runs", "Assistant", "Webhooks", "OpenAPI"])
    await expect(page.getByRole("link", { name: tag, exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Open Group - Assistant" }).click();
  await expect(page.getByRole("link", { name: /^AI Configure Base HTTP Method: POST/ })).toBeVisible();
  await page.screenshot({ path: "test-results/e2e/docs.png" });
});
