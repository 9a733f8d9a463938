import { ARTIFACTS, expect, signIn, test } from "./support/fixtures";
import { readFile } from "node:fs/promises";

// Import a CSV through the UI: "New base from file" on the bases page, the preview with the
// inferred types, a merge key, the progress bar, and the summary with the first errors; then
// "Import" in the base's toolbar updates rows on the merge key.

const LINES = 3_000;

test("import a CSV through the UI and watch it land", async ({ page, api }) => {
  test.setTimeout(120_000);
  const csv = `Email,Company,Employees,Active\n${Array.from({ length: LINES }, (_, i) => `p${i}@x.test,Company ${i},${i === 7 ? "many" : i * 3},${i % 2 ? "yes" : "no"}`).join("\n")}\n`;
  await signIn(page, "/");
  await page.getByRole("button", { name: "New base from file" }).click();
  const dialog = page.getByRole("dialog", { name: "New base from file" });
  await dialog
    .getByLabel("File to import")
    .setInputFiles({ name: "Leads.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });

  const preview = dialog.getByRole("table", { name: "Import preview" });
  await expect(preview).toBeVisible();
  await expect(preview.getByRole("row")).toHaveCount(21);
  await expect(preview.getByRole("columnheader", { name: /Employees/ })).toContainText("short-text");
  await expect(preview.getByRole("columnheader", { name: /Active/ })).toContainText("checkbox");
  await expect(dialog.getByTestId("ai-estimate")).toHaveText("No AI cells will be queued.");
  await dialog.getByLabel("Merge key").selectOption("Email");
  await page.screenshot({ path: `${ARTIFACTS}/import-preview.png` });

  await dialog.getByRole("button", { name: `Import ${LINES.toLocaleString("en-US")} lines` }).click();
  const progress = dialog.getByTestId("import-progress");
  await expect(progress).toBeVisible();
  await expect(dialog.getByRole("progressbar", { name: "Import progress" })).toBeVisible();
  await expect(progress).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(progress).toContainText(`${LINES.toLocaleString("en-US")} lines read`);
  await expect(progress).toContainText(`${LINES.toLocaleString("en-US")} rows created`);
  await page.screenshot({ path: `${ARTIFACTS}/import-done.png` });

  await dialog.getByRole("button", { name: "Open base" }).click();
  await expect(page.getByRole("heading", { name: "Leads" })).toBeVisible();
  await expect(page.getByText(`${LINES.toLocaleString("en-US")} rows`)).toBeVisible({ timeout: 30_000 });

  // Import again from the toolbar, on the merge key: two rows change, one line is skipped.
  await page.getByRole("toolbar", { name: "Table actions" }).getByRole("button", { name: "Import" }).click();
  const again = page.getByRole("dialog", { name: "Import a file" });
  await again.getByLabel("File to import").setInputFiles({
    name: "fix.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("Email,Company,Active\np1@x.test,Renamed,no\np2@x.test,Also,yes\nbroken,,maybe\n"),
  });
  await again.getByLabel("Merge key").selectOption("Email");
  await again.getByRole("button", { name: "Import 3 lines" }).click();
  const result = again.getByTestId("import-progress");
  await expect(result).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(result).toContainText("0 rows created, 2 updated, 1 skipped");
  await expect(again.getByRole("list", { name: "Import errors" })).toContainText("Line 4");
  await page.screenshot({ path: `${ARTIFACTS}/import-merge.png` });
  await again.getByRole("button", { name: "Close" }).click();
  await expect(page.getByText("Renamed")).toBeVisible();
  const rows = await api.call<{ rows: { cells: Record<string, string> }[] }>(
    "GET",
    `/api/v1/bases/${(await page.url()).split("/bases/")[1]}/rows`,
  );
  expect(rows.rows).toHaveLength(LINES);
});

test("a CSV imported through the UI exports back as the same file", async ({ page }) => {
  test.setTimeout(120_000);
  const csv = `Company,Employees,Notes\r\n${Array.from({ length: 500 }, (_, i) => `${i % 7 ? `Company ${i}` : `"Comma, Inc. ${i}"`},${i * 3},${i % 5 ? "plain" : `"said ""hi"""`}`).join("\r\n")}\r\n`;
  await signIn(page, "/");
  await page.getByRole("button", { name: "New base from file" }).click();
  const dialog = page.getByRole("dialog", { name: "New base from file" });
  await dialog
    .getByLabel("File to import")
    .setInputFiles({ name: "Round trip.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await dialog.getByRole("button", { name: "Import 500 lines" }).click();
  await expect(dialog.getByTestId("import-progress")).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await dialog.getByRole("button", { name: "Open base" }).click();
  await expect(page.getByText("500 rows", { exact: true })).toBeVisible({ timeout: 30_000 });

  await page
    .getByRole("toolbar", { name: "Table actions" })
    .getByRole("button", { name: "Export", exact: true })
    .click();
  const exporting = page.getByRole("dialog", { name: "Export rows" });
  await exporting.getByLabel(/^CSV/).check();
  await exporting.getByLabel("All rows").check();
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    exporting.getByRole("button", { name: "Download" }).click(),
  ]);
  expect(file.suggestedFilename()).toBe("Round trip.csv");
  const exported = await readFile((await file.path())!, "utf8");
  expect(exported).toBe(`\uFEFF${csv}`);
});
