import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// The main path through the UI: sign in, create a base, design its columns, fill and edit
// rows, delete rows. Everything goes through the real API of the production build.

test("sign in, create a base, add columns, add, paste, edit and delete rows", async ({ page, context }) => {
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Bases", level: 1 })).toBeVisible();

  // The key is not kept by the browser: only an httpOnly session cookie.
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "cellwright_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");
  expect(
    await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
  ).not.toContain("cw_");

  // Create a base.
  await page
    .getByRole("button", { name: /^(New base|Create your first base)$/ })
    .first()
    .click();
  await page.getByLabel("Name", { exact: true }).fill("Companies");
  await page.getByRole("button", { name: "Create base" }).click();
  await page.waitForURL(/\/bases\/[A-Za-z0-9]{8}$/);
  const baseUrl = page.url();
  await expect(page.getByRole("heading", { name: "Companies" })).toBeVisible();
  await expect(grid(page).locator('[data-column="Name"]')).toBeVisible();
  await expect(page.getByText("No rows yet")).toBeVisible();

  // Add columns with the column editor.
  const addColumn = async (fill: (d: import("@playwright/test").Locator) => Promise<void>) => {
    await page.getByRole("button", { name: "Column", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "New column" });
    await fill(dialog);
    await dialog.getByRole("button", { name: "Add column" }).click();
    await expect(dialog).toBeHidden();
  };
  await addColumn(async (d) => {
    await d.getByLabel("Name", { exact: true }).fill("Website");
    await d.getByLabel("Type").selectOption("url");
  });
  await addColumn(async (d) => {
    await d.getByLabel("Name", { exact: true }).fill("Employees");
    await d.getByLabel("Type").selectOption("number");
  });
  await addColumn(async (d) => {
    await d.getByLabel("Name", { exact: true }).fill("Summary");
    await d.getByLabel("Type").selectOption("long-text");
    await d.getByLabel("Filled by AI").check();
    await d.getByLabel("Instructions").fill("Summarise what the company does in one sentence.");
    await d.getByRole("group", { name: "Input columns" }).getByLabel("Name", { exact: true }).check();
    await d.getByRole("group", { name: "Input columns" }).getByLabel("Website").check();
    await d.getByLabel(/Web search/).check();
    await d.getByLabel(/Model/).fill("openai:gpt-4.1-mini");
  });
  // A formula column: computed from the row, inserted from the column chips.
  await addColumn(async (d) => {
    await d.getByLabel("Name", { exact: true }).fill("Per 1k");
    await d.getByLabel("Type").selectOption("number");
    await d.getByLabel("Filled by formula").check();
    await d.getByRole("group", { name: "Insert a column" }).getByRole("button", { name: "Employees" }).click();
    await d.getByLabel("Formula", { exact: true }).press("End");
    await d.getByLabel("Formula", { exact: true }).pressSequentially(" / 1000");
    await expect(d.getByLabel("Formula", { exact: true })).toHaveValue("Employees / 1000");
    await page.screenshot({ path: `${ARTIFACTS}/column-editor-formula.png` });
  });
  await expect(grid(page).locator('[data-column="Per 1k"]').getByText("Formula")).toBeVisible();
  for (const name of ["Website", "Employees", "Summary"])
    await expect(grid(page).locator(`[data-column="${name}"]`)).toBeVisible();
  await expect(grid(page).locator('[data-column="Summary"]').getByText("AI")).toBeVisible();

  // A dependency cycle is refused by the API and shown next to the inputs.
  await grid(page).locator('[data-column="Website"]').getByRole("button", { name: "Column menu for Website" }).click();
  await page.getByRole("menuitem", { name: "Edit column…" }).click();
  const edit = page.getByRole("dialog", { name: "Edit “Website”" });
  await edit.getByLabel("Filled by AI").check();
  await edit.getByRole("group", { name: "Input columns" }).getByLabel("Summary").check();
  await edit.getByRole("button", { name: "Save column" }).click();
  await expect(edit.getByRole("alert")).toContainText("cycle");
  await edit.getByRole("button", { name: "Cancel" }).click();

  // Add a row with the toolbar and type into it.
  await page.getByRole("button", { name: "Row", exact: true }).click();
  const name1 = await cellAt(page, 1, "Name");
  await expect(name1).toBeVisible();
  await name1.click();
  await page.keyboard.type("Acme");
  await page.keyboard.press("Enter");
  await expect(name1).toHaveText("Acme");

  // Paste rows from a spreadsheet: a header line maps the columns.
  const tsv = [
    "Name\tWebsite\tEmployees",
    "Globex\tglobex.com\t1200",
    "Initech\tinitech.com\t300",
    "Umbrella\tumbrella.example\t50000",
  ].join("\n");
  await grid(page).focus();
  await grid(page).evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData("text/plain", text);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, tsv);
  await expect(page.getByText("Pasted 3 rows.")).toBeVisible();
  await expect(await cellAt(page, 4, "Name")).toHaveText("Umbrella");
  await expect(await cellAt(page, 2, "Website")).toContainText("globex.com");
  await expect(await cellAt(page, 2, "Summary")).toContainText(/Queued|Running|\S/);

  // Edit a number: an invalid value shows the API's error inline; Esc cancels.
  const employees = await cellAt(page, 3, "Employees");
  await employees.dblclick();
  const editor = employees.getByRole("textbox", { name: "Edit Employees" });
  await editor.fill("lots");
  await editor.press("Enter");
  await expect(employees.getByRole("alert")).toContainText("Expected a number");
  await page.screenshot({ path: `${ARTIFACTS}/grid-inline-error.png` });
  await editor.press("Escape");
  await expect(employees).toHaveText("300");
  await employees.dblclick();
  await employees.getByRole("textbox", { name: "Edit Employees" }).fill("320");
  await page.keyboard.press("Enter");
  await expect(employees).toHaveText("320");
  await expect(await cellAt(page, 3, "Per 1k")).toHaveText("0.32");
  await expect(await cellAt(page, 4, "Per 1k")).toHaveText("50");

  // Keyboard: arrows move the focused cell, Ctrl+C copies the selection as TSV.
  await (await cellAt(page, 2, "Name")).click();
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Shift+ArrowRight");
  const copied = await grid(page).evaluate((el) => {
    const data = new DataTransfer();
    el.dispatchEvent(new ClipboardEvent("copy", { clipboardData: data, bubbles: true, cancelable: true }));
    return data.getData("text/plain");
  });
  expect(copied).toBe("Globex\thttps://globex.com\nInitech\thttps://initech.com");

  await page.screenshot({ path: `${ARTIFACTS}/grid.png` });

  // Select two rows and delete them.
  await page.getByLabel("Select row 2").check({ force: true });
  await page.getByLabel("Select row 3").check({ force: true });
  await page.getByRole("button", { name: "Delete 2 rows" }).click();
  await page.getByRole("dialog", { name: "Delete 2 rows?" }).getByRole("button", { name: "Delete 2 rows" }).click();
  await expect(page.getByText("2 rows", { exact: true })).toBeVisible();
  await expect(await cellAt(page, 2, "Name")).toHaveText("Umbrella");

  // Deep link: a reload shows the same base.
  await page.goto(baseUrl);
  await expect(await cellAt(page, 1, "Name")).toHaveText("Acme");
  await expect(await cellAt(page, 2, "Name")).toHaveText("Umbrella");
});
