import { API_KEY } from "./support/env";
import { cellAt, expect, signIn, test } from "./support/fixtures";

// Sign-in, deep links and sign-out.

test("a deep link survives sign-in, and sign-out ends the session", async ({ page, api, context }) => {
  const base = await api.createBase("Deep link", [{ name: "Company", type: "short-text", isPrimary: true }]);
  await api.addRows(base.baseId, [{ Company: "Acme" }]);

  // Signed out, the base's URL leads to sign-in and back.
  await page.goto(`/bases/${base.baseId}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=%2Fbases%2F${base.baseId}$`));

  await page.getByLabel("API key").fill("cw_not_a_real_key");
  await page.getByRole("button", { name: "Sign in with the key" }).click();
  await expect(page.getByText("That API key is unknown or has been revoked.")).toBeVisible();

  await page.getByLabel("API key").fill(API_KEY);
  await page.getByRole("button", { name: "Sign in with the key" }).click();
  await expect(page).toHaveURL(new RegExp(`/bases/${base.baseId}$`));
  await expect(await cellAt(page, 1, "Company")).toHaveText("Acme");

  // A reload keeps the base; the base id is in the URL.
  await page.reload();
  await expect(await cellAt(page, 1, "Company")).toHaveText("Acme");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await context.cookies()).find((c) => c.name === "cellwright_session")).toBeUndefined();
  const status = await page.evaluate(async () => (await fetch("/api/v1/bases")).status);
  expect(status).toBe(401);
});

test("the bases page creates, renames and deletes bases", async ({ page }) => {
  await signIn(page);
  await page
    .getByRole("button", { name: /^(New base|Create your first base)$/ })
    .first()
    .click();
  await page.getByLabel("Name", { exact: true }).fill("Rename me");
  await page.getByRole("button", { name: "Create base" }).click();
  await page.waitForURL(/\/bases\//);
  await page.getByRole("link", { name: "Bases" }).click();

  await page.getByRole("button", { name: "Rename Rename me" }).click();
  const input = page.getByLabel("New name for Rename me");
  await input.fill("Renamed base");
  await input.press("Enter");
  const link = page.getByRole("link", { name: "Renamed base" });
  await expect(link).toBeVisible();
  const item = page.getByRole("listitem").filter({ has: link });
  await expect(item).toContainText("0 rows");
  await expect(item).toContainText("1 column");

  await page.getByRole("button", { name: "Delete Renamed base" }).click();
  await page
    .getByRole("dialog", { name: "Delete “Renamed base”?" })
    .getByRole("button", { name: "Delete base" })
    .click();
  await expect(link).toBeHidden();
});
