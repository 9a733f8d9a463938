import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";
import { expectNoSeriousViolations } from "./support/axe";

// axe-core on every page and on the grid's open states: no serious or critical violations.

test("sign-in, bases and the grid have no serious accessibility violations", async ({ page, api }) => {
  await page.goto("/sign-in");
  await expectNoSeriousViolations(page, "sign-in");

  const base = await api.createBase("Accessible", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Website", type: "url" },
    { name: "Headcount", type: "number" },
    { name: "Public", type: "checkbox" },
    { name: "Stage", type: "select", columnOptions: { options: ["Seed", "Series A", "Public"] } },
    { name: "Summary", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Describe." },
  ]);
  await api.addRows(base.baseId, [
    { Company: "Acme", Website: "acme.example", Headcount: "120", Public: "true", Stage: "Series A" },
    { Company: "Globex", Website: "globex.example", Headcount: "4000", Public: "false", Stage: "Public" },
  ]);

  await signIn(page);
  await expect(page.getByRole("link", { name: "Accessible" })).toBeVisible();
  await expectNoSeriousViolations(page, "bases");

  await page.goto(`/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Company")).toHaveText("Acme");
  await expect(await cellAt(page, 1, "Summary")).toContainText("AI(", { timeout: 20_000 });
  await expectNoSeriousViolations(page, "grid");

  // Keyboard only: focus lands in the grid, arrows move, Enter edits, Esc returns focus.
  await grid(page).focus();
  await expect(grid(page)).toHaveAttribute("aria-activedescendant", /^cell-/);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(await cellAt(page, 1, "Headcount")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("textbox", { name: "Edit Headcount" })).toBeFocused();
  await expectNoSeriousViolations(page, "grid while editing");
  await page.keyboard.press("Escape");
  await expect(grid(page)).toBeFocused();

  await page.getByRole("button", { name: "Column menu for Summary" }).click();
  await expect(page.getByRole("menuitem", { name: "Edit column…" })).toBeFocused();
  await expectNoSeriousViolations(page, "column menu");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Edit “Summary”" })).toBeVisible();
  await expectNoSeriousViolations(page, "column editor");
  await page.screenshot({ path: `${ARTIFACTS}/column-editor.png` });
  // A waterfall's steps: sortable cards with drag handles, move and remove buttons.
  const editor = page.getByRole("dialog", { name: "Edit “Summary”" });
  await editor.getByLabel("Filled by waterfall").check();
  await expect(editor.getByTestId("waterfall-step")).toHaveCount(3);
  await expectNoSeriousViolations(page, "waterfall steps editor");
  await page.keyboard.press("Escape");

  await (await cellAt(page, 1, "Summary")).click();
  await expect(page.getByTestId("cell-popover")).toBeVisible();
  await expectNoSeriousViolations(page, "popover");
});

test("dark mode follows the system and stays accessible", async ({ page, api }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  const base = await api.createBase("Dark", [{ name: "Company", type: "short-text", isPrimary: true }]);
  await api.addRows(base.baseId, [{ Company: "Acme" }]);
  await signIn(page, `/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Company")).toHaveText("Acme");
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).not.toBe("rgb(255, 255, 255)");
  await expectNoSeriousViolations(page, "grid in dark mode");
  await page.screenshot({ path: `${ARTIFACTS}/grid-dark.png` });
  await page.getByRole("button", { name: "Column", exact: true }).click();
  const editor = page.getByRole("dialog", { name: "New column" });
  await editor.getByLabel("Filled by waterfall").check();
  await editor.getByRole("button", { name: "Drag step 1, Pattern guess" }).scrollIntoViewIfNeeded();
  await expectNoSeriousViolations(page, "waterfall steps editor in dark mode");
  await page.screenshot({ path: `${ARTIFACTS}/waterfall-steps-dark.png` });
});
