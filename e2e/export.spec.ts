import { readFile } from "node:fs/promises";
import path from "node:path";
import { ARTIFACTS, expect, grid, signIn, test } from "./support/fixtures";

// Export from the toolbar: choose CSV, the current view (the grid's URL state) or all rows, and
// check the downloaded file's contents.

test("export a base to CSV from the toolbar, all rows and the current view", async ({ page, api }) => {
  const base = await api.createBase("Export — Zürich", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Employees", type: "number" },
    { name: "Note", type: "long-text" },
  ]);
  await api.addRows(base.baseId, [
    { Company: "Acme, Inc.", Employees: "120", Note: '=HYPERLINK("x")' },
    { Company: "Zoë Café", Employees: "-4", Note: "line one\nline two" },
    { Company: "Globex", Employees: "40", Note: "" },
  ]);
  await signIn(page, `/bases/${base.baseId}`);
  await expect(grid(page).getByText("Zoë Café")).toBeVisible();

  await page.getByRole("button", { name: "Export" }).click();
  const dialog = page.getByRole("dialog", { name: "Export rows" });
  await dialog.getByLabel(/^CSV/).check();
  await dialog.getByLabel("All rows").check();
  await page.screenshot({ path: path.join(ARTIFACTS, "export-dialog.png") });
  const [all] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download" }).click(),
  ]);
  expect(all.suggestedFilename()).toBe("Export — Zürich.csv");
  const text = await readFile((await all.path())!, "utf8");
  expect(text).toBe(
    "\uFEFFCompany,Employees,Note\r\n" +
      `"Acme, Inc.",120,"'=HYPERLINK(""x"")"\r\n` +
      `Zoë Café,-4,"line one\nline two"\r\n` +
      "Globex,40,\r\n",
  );

  // The current view: the grid's query state in the page URL.
  await page.goto(`/bases/${base.baseId}?sort=-Employees&q=${encodeURIComponent("o")}`);
  await page.getByRole("button", { name: "Export" }).click();
  await expect(dialog.getByLabel(/The current view/)).toBeChecked();
  const [view] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download" }).click(),
  ]);
  const rows = (await readFile((await view.path())!, "utf8")).split("\r\n").map((line) => line.split(",")[0]);
  expect(rows).toEqual(["\uFEFFCompany", "Globex", "Zoë Café", ""]);
  await expect(dialog).toBeHidden();

  // A filter the base does not fit is refused in the dialog, not as a JSON page.
  await page.goto(`/bases/${base.baseId}?sort=Missing`);
  await page.getByRole("button", { name: "Export" }).click();
  await dialog.getByRole("button", { name: "Download" }).click();
  await expect(dialog.getByRole("alert")).toContainText('No column "Missing"');
  await page.screenshot({ path: path.join(ARTIFACTS, "export-refused.png") });
});
