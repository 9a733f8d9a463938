import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// AI cells fill live: the engine runs them against the fake LLM and the grid hears about each
// change over Server-Sent Events, without reloading or polling.

test("AI cells go from spinner to value live, with confidence, details and error tooltips", async ({ page, api }) => {
  const base = await api.createBase("Live companies", [
    { name: "Company", type: "short-text", isPrimary: true },
    {
      name: "Summary",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      instructions: "Say what the company does.",
    },
    {
      name: "Broken",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      instructions: "Always fails. [[fake:status=500]]",
    },
  ]);
  await signIn(page, `/bases/${base.baseId}`);
  await expect(page.locator('[data-live="live"]')).toBeVisible();

  // Rows added by another client appear, and their AI cells fill, with no reload.
  const added = await api.addRows(base.baseId, [{ Company: "Acme" }, { Company: "Globex" }]);
  expect(added.rows).toHaveLength(2);
  const summary1 = await cellAt(page, 1, "Summary");
  await expect(summary1).toContainText("AI(", { timeout: 20_000 });
  await expect(await cellAt(page, 2, "Summary")).toContainText("Globex");

  // The details popover: confidence as a percentage and a bar, and the model's details.
  await summary1.hover();
  const popover = page.getByTestId("cell-popover");
  await expect(popover).toBeVisible();
  await expect(popover.getByRole("meter", { name: "Confidence" })).toBeVisible();
  await expect(popover).toContainText("90%");
  await expect(popover).toContainText("Answered by the fake LLM");
  await page.mouse.move(5, 5);
  await expect(popover).toBeHidden();

  // A failed cell shows an error icon whose tooltip carries the code and message.
  const broken = await cellAt(page, 1, "Broken");
  await expect(broken.getByRole("img", { name: /^Error — / })).toBeVisible({ timeout: 20_000 });
  const tooltip = await broken.locator("[title]").first().getAttribute("title");
  expect(tooltip).toMatch(/^\w+: .+/);
  await broken.click();
  await expect(popover).toContainText("Failed");
  await page.keyboard.press("Escape");

  // "Needs review" narrows the grid to rows with a failed or low-confidence cell.
  // Each toggle reads the rows again; the next step waits until they are in (an edit started
  // before would be lost to the new rows).
  const toggleReview = async () => {
    const reread = page.waitForResponse(
      (r) => r.url().endsWith("/rows/query") && r.request().postDataJSON()?.count === true,
    );
    await page.getByRole("button", { name: /Needs review/ }).click();
    await reread;
    await expect(grid(page)).toHaveAttribute("aria-busy", "false");
  };
  await toggleReview();
  await expect(grid(page)).toHaveAttribute("aria-rowcount", "3");
  await toggleReview();

  // Editing an input cell re-runs its dependent: spinner, then the new value.
  const company = await cellAt(page, 1, "Company");
  await company.dblclick();
  await company.getByRole("textbox").fill("Initech");
  await company.getByRole("textbox").press("Enter");
  await expect(summary1).toContainText("Initech", { timeout: 20_000 });

  await (await cellAt(page, 2, "Summary")).hover();
  await expect(popover).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/popover-live.png` });
});

test("a cell the engine is running shows a spinner", async ({ page, api }) => {
  const base = await api.createBase("Slow", [
    { name: "Company", type: "short-text", isPrimary: true },
    {
      name: "Slow",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      instructions: "Take your time. [[fake:delay=2500]]",
    },
  ]);
  await signIn(page, `/bases/${base.baseId}`);
  await expect(page.locator('[data-live="live"]')).toBeVisible();
  await api.addRows(base.baseId, [{ Company: "Umbrella" }]);
  const slow = await cellAt(page, 1, "Slow");
  await expect(slow.getByRole("status", { name: /Running|Queued/ })).toBeVisible();
  await expect(slow).toContainText("AI(", { timeout: 20_000 });
});
