import type { Locator, Page } from "@playwright/test";
import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";
import { expectNoSeriousViolations } from "./support/axe";

// Find rows from the grid: a query split into criteria, a preview whose every verdict opens to its
// reasoning and the page words that show it, then the matches added as rows with a column per
// criterion, and the rejected candidates' reasons. The search and the companies' sites are the
// fake world at loopback addresses (test/support/fake-world.ts); the model reads their pages honestly (world-model.ts).

const QUERY = "B2B software companies in Berlin with 50–200 employees";
const CRITERIA = ["Based in Berlin", "50–200 employees", "Sells B2B", "Works in software"];

const runBar = (page: Page) => page.getByRole("status", { name: "Run progress" });
/** axe on the open dialog: no serious or critical violations. */
const chip = (scope: Locator, label: string) => scope.locator(`summary[aria-label="${label}"]`);

test("find rows: preview with verified criteria, add the matches, inspect the rejected", async ({ page, api }) => {
  test.setTimeout(240_000);
  const base = await api.createBase(`Berlin software ${Date.now()}`, [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Website", type: "url" },
  ]);
  await signIn(page, `/bases/${base.baseId}`);
  await expect(grid(page)).toBeVisible();

  await page.getByRole("toolbar", { name: "Table actions" }).getByRole("button", { name: "Find rows" }).click();
  const dialog = page.getByRole("dialog", { name: "Find rows" });
  await dialog.getByLabel("What should the rows be?").fill(QUERY);
  await dialog.getByRole("button", { name: "Suggest criteria" }).click();
  for (const [i, text] of CRITERIA.entries())
    await expect(dialog.getByLabel(`Criterion ${i + 1}`, { exact: true })).toHaveValue(text);
  await dialog.getByRole("button", { name: "Add criterion" }).click();
  await dialog.getByLabel("Criterion 5", { exact: true }).fill("Has a blog");
  await dialog.getByRole("button", { name: "Remove criterion 5" }).click();
  await expect(dialog.getByLabel("Criterion 5", { exact: true })).toHaveCount(0);
  await dialog.getByLabel("Rows to find").fill("4");
  await dialog.screenshot({ path: `${ARTIFACTS}/find-rows-form.png` });

  await dialog.getByRole("button", { name: "Preview" }).click();
  await expect(dialog.getByTestId("find-progress")).toContainText("Preview ready", { timeout: 120_000 });
  const preview = dialog.getByRole("table", { name: "Preview candidates" });
  const matched = preview.locator("tbody tr", { has: page.getByText("matched", { exact: true }) });
  await expect(matched.first()).toBeVisible();
  const first = matched.first();
  for (const text of CRITERIA) await expect(chip(first, `${text}: yes`)).toBeVisible();
  await chip(first, "Based in Berlin: yes").click();
  const quote = first.locator("blockquote").first();
  await expect(quote).toContainText("headquartered in Berlin");
  await expect(first.getByRole("link").nth(1)).toHaveAttribute("href", /^http:\/\/127\.0\.1\./);
  await expect(dialog.getByTestId("find-estimate")).toContainText(/about \d+ credits?/);
  await dialog.screenshot({ path: `${ARTIFACTS}/find-rows-preview.png` });
  await expectNoSeriousViolations(page, "the preview", "dialog[open]");

  await dialog.getByRole("button", { name: "Find 4 rows" }).click();
  await expect(dialog).toBeHidden();
  await expect(runBar(page)).toContainText(/Finding rows…|Find finished/);
  await expect(page.getByTestId("find-counts")).toContainText("4 added", { timeout: 120_000 });
  await expect(runBar(page).getByRole("button", { name: "Find more" })).toBeVisible();

  // The matches are rows, with a verdict column per criterion.
  for (const text of CRITERIA)
    await expect(grid(page).locator(`[role=columnheader][data-column="${text}"]`)).toBeVisible();
  await expect(grid(page).locator("[role=row][aria-rowindex]")).toHaveCount(5);
  await expect(await cellAt(page, 1, "Based in Berlin")).toContainText("yes");
  await expect(await cellAt(page, 1, "Company")).not.toBeEmpty();
  await page.screenshot({ path: `${ARTIFACTS}/find-rows-grid.png` });

  // What it did not add, and why.
  await page.getByRole("toolbar", { name: "Table actions" }).getByRole("button", { name: "Find rows" }).click();
  await dialog.getByRole("tab", { name: "Past finds" }).click();
  await expect(dialog.getByRole("list", { name: "Finds" })).toContainText(QUERY);
  const rejected = dialog.getByRole("table", { name: "Rejected candidates" });
  const row = rejected.locator("tbody tr").first();
  await expect(row).toContainText("rejected");
  const no = row.locator('summary[aria-label$=": no"]').first();
  await no.click();
  await expect(row.locator("details[open] blockquote").first()).toBeVisible();
  await expect(row.locator("td").last()).not.toBeEmpty();
  await dialog.screenshot({ path: `${ARTIFACTS}/find-rows-rejected.png` });
  await expectNoSeriousViolations(page, "the past finds", "dialog[open]");
  await page.emulateMedia({ colorScheme: "dark" });
  await dialog.screenshot({ path: `${ARTIFACTS}/find-rows-rejected-dark.png` });
  await expectNoSeriousViolations(page, "the past finds in dark mode", "dialog[open]");
  await page.emulateMedia({ colorScheme: "light" });
  await dialog.getByRole("button", { name: "Close" }).click();

  // Find more: two more rows, never verifying a candidate twice.
  page.once("dialog", (d) => void d.accept("2"));
  await runBar(page).getByRole("button", { name: "Find more" }).click();
  await expect(page.getByTestId("find-counts")).toContainText("6 added", { timeout: 120_000 });
  await expect(grid(page).locator("[role=row][aria-rowindex]")).toHaveCount(7);
  await page.screenshot({ path: `${ARTIFACTS}/find-rows-more.png` });
});
