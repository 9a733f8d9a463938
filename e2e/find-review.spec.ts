import { ARTIFACTS, cellAt, expect, grid, signIn, test, type Api } from "./support/fixtures";
import type { Page } from "@playwright/test";

// Find and review in a 5,000-row base: filter, sort and search with the state in the URL; saved
// views; and review mode walking the low-confidence cells with the keyboard. Twelve Products cells
// are left empty, so the engine fills them through scrape-url with a 42% answer (see
// support/fake-llm-server.ts); every other one is supplied.

const ROWS = 5_000;
const COUNTRIES = ["Japan", "France", "Germany"];
const pad = (i: number) => String(i).padStart(4, "0");

async function seed(api: Api, name: string) {
  const base = await api.createBase(name, [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Employees", type: "number" },
    { name: "Country", type: "select", columnOptions: { options: COUNTRIES } },
    {
      name: "Products",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      tools: ["scrape-url"],
      instructions: "What does it sell?",
    },
  ]);
  const rows = Array.from({ length: ROWS }, (_, k) => {
    const i = k + 1;
    return {
      Company: `Company ${pad(i)}`,
      Employees: String(i),
      Country: COUNTRIES[i % 3],
      ...(i % 400 === 0 ? {} : { Products: "Widgets" }),
    };
  });
  await api.addRows(base.baseId, rows);
  return base;
}

const rowsText = (page: Page) => page.getByRole("toolbar", { name: "Table actions" }).locator("p[aria-live=polite]");

async function addCondition(page: Page, column: string, operator: string, value: string) {
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Add a condition" });
  await dialog.getByLabel("Column").selectOption({ label: column });
  await dialog.getByLabel("Operator").selectOption({ label: operator });
  const input = dialog.getByLabel("Value");
  if ((await input.evaluate((el) => el.tagName)) === "SELECT") await input.selectOption({ label: value });
  else await input.fill(value);
  await dialog.getByRole("button", { name: "Add condition" }).click();
}

async function pickView(page: Page, label: string) {
  await page.getByRole("button", { name: /^View:/ }).click();
  await page.getByRole("menuitem", { name: label }).click();
}

test("filter, sort and search a 5,000-row base, with the state in the URL", async ({ page, api }) => {
  test.setTimeout(120_000);
  const base = await seed(api, "Find");
  await signIn(page, `/bases/${base.baseId}`);
  await expect(rowsText(page)).toHaveText("5,000 rows", { timeout: 60_000 });

  await addCondition(page, "Employees", "≥", "4991");
  await expect(rowsText(page)).toHaveText("10 of 5,000 rows");
  await expect(page.getByRole("button", { name: "Employees ≥ 4991", exact: true })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("filter")).toContain('"op":"gte"');

  await page.getByRole("button", { name: "Sort by a column" }).click();
  await page.getByRole("menuitem", { name: "Employees" }).click();
  await expect(await cellAt(page, 1, "Employees")).toHaveText("4991");
  await page.getByRole("button", { name: "Employees ↑" }).click();
  await expect(await cellAt(page, 1, "Employees")).toHaveText("5000");

  // A reload (or a shared link) shows the same rows.
  await page.reload();
  await expect(rowsText(page)).toHaveText("10 of 5,000 rows", { timeout: 30_000 });
  await expect(await cellAt(page, 1, "Employees")).toHaveText("5000");
  await expect(page.getByRole("button", { name: "Employees ↓" })).toBeVisible();

  // The search box filters as you type, on any cell of the row.
  await page.getByLabel("Search rows").fill("company 4995");
  await expect(rowsText(page)).toHaveText("1 of 5,000 rows");
  await expect(await cellAt(page, 1, "Company")).toHaveText("Company 4995");
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("company 4995");
  await page.screenshot({ path: `${ARTIFACTS}/find-filter-sort-search.png` });

  await page.getByRole("button", { name: "Remove the condition Employees ≥ 4991" }).click();
  await page.getByLabel("Search rows").fill("");
  await expect(rowsText(page)).toHaveText("5,000 rows", { timeout: 30_000 });
  await expect(await cellAt(page, 1, "Employees")).toHaveText("5000");
});

test("save the current filter as a view, switch, rename and delete it", async ({ page, api }) => {
  test.setTimeout(120_000);
  const base = await seed(api, "Views");
  await signIn(page, `/bases/${base.baseId}`);
  await expect(rowsText(page)).toHaveText("5,000 rows", { timeout: 60_000 });

  await addCondition(page, "Country", "is", "Japan");
  await expect(rowsText(page)).toHaveText("1,666 of 5,000 rows");
  await pickView(page, "Save as a new view…");
  await page.getByRole("dialog", { name: "Save as a new view" }).getByLabel("Name").fill("Japan");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("current-view")).toHaveText("Japan");
  expect(new URL(page.url()).searchParams.get("view")).toMatch(/^view_/);

  await pickView(page, "All rows");
  await expect(rowsText(page)).toHaveText("5,000 rows", { timeout: 30_000 });
  await pickView(page, "Japan");
  await expect(rowsText(page)).toHaveText("1,666 of 5,000 rows", { timeout: 30_000 });
  await expect(await cellAt(page, 1, "Country")).toHaveText("Japan");

  await pickView(page, "Rename “Japan”…");
  const rename = page.getByRole("dialog", { name: "Rename the view" }).getByLabel("Name");
  await rename.fill("Japan accounts");
  await rename.press("Enter");
  await expect(page.getByTestId("current-view")).toHaveText("Japan accounts");
  await page.screenshot({ path: `${ARTIFACTS}/find-views.png` });

  await pickView(page, "Delete “Japan accounts”");
  await expect(page.getByTestId("current-view")).toHaveText("All rows");
  const views = await api.call<{ views: { name: string }[] }>("GET", `/api/v1/bases/${base.baseId}/views`);
  expect(views.views.map((v) => v.name)).toEqual(["All rows"]);
});

test("review mode walks the low-confidence cells: accept, edit, undo, move, re-run", async ({ page, api }) => {
  test.setTimeout(180_000);
  const base = await seed(api, "Review");
  const reviewFilter = { filter: { column: "Products", needsReview: true }, limit: 1, count: true };
  await expect
    .poll(async () => (await api.call("POST", `/api/v1/bases/${base.baseId}/rows/query`, reviewFilter)).total, {
      timeout: 90_000,
    })
    .toBe(12);

  await signIn(page, `/bases/${base.baseId}`);
  const toggle = page.getByRole("button", { name: /Needs review/ });
  await expect(toggle).toContainText("12", { timeout: 30_000 });
  await toggle.click();
  const panel = page.getByTestId("review-panel");
  await expect(panel).toContainText("12 cells to review");
  await expect(rowsText(page)).toHaveText("12 of 5,000 rows", { timeout: 30_000 });
  await expect(panel).toContainText("Company 0400");
  await expect(panel).toContainText("42%");
  await expect(panel.getByRole("link", { name: /The Quiet Rise of Heat Pumps/ })).toBeVisible();
  await expect(panel).toContainText("heat pumps in new homes");
  await page.screenshot({ path: `${ARTIFACTS}/review-mode.png` });

  // Enter accepts: the cell gets its check mark and the walk moves on.
  await page.keyboard.press("Enter");
  await expect(panel).toContainText("11 cells to review");
  await expect(panel).toContainText("Company 0800");
  await expect((await cellAt(page, 1, "Products")).getByRole("img", { name: "Verified" })).toBeVisible();

  // e edits: the corrected value is stored as verified.
  await page.keyboard.press("e");
  const editor = panel.getByLabel("Corrected value");
  await editor.fill("Solar panels");
  await editor.press("Enter");
  await expect(panel).toContainText("10 cells to review");
  await expect(await cellAt(page, 2, "Products")).toContainText("Solar panels");

  // u undoes the edit: the model's value is back, and the cell is due for review again.
  await page.keyboard.press("u");
  await expect(page.getByText("Undone.")).toBeVisible();
  await expect(await cellAt(page, 2, "Products")).toContainText("Heat pumps");
  await expect(panel).toContainText("11 cells to review");
  await expect(panel).toContainText("Company 0800");

  // j and k move; r re-runs the cell under review.
  await page.keyboard.press("j");
  await expect(panel).toContainText("Company 1200");
  await page.keyboard.press("k");
  await expect(panel).toContainText("Company 0800");
  await page.keyboard.press("r");
  await expect(panel).toContainText("Company 1200");
  await page.screenshot({ path: `${ARTIFACTS}/review-walk.png` });

  const history = await api.call<{ actions: { action: string }[] }>("GET", `/api/v1/bases/${base.baseId}/review`);
  expect(history.actions.map((a) => a.action)).toEqual(["rerun", "undo", "edit", "accept"]);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(panel).toBeHidden();
  expect(new URL(page.url()).searchParams.get("review")).toBeNull();
  await expect(grid(page)).toBeVisible();
});
