import type { Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// A generated cell's history: the model's answer changes when its column is re-run (support/
// fake-llm-server.ts moves "Shifting …" companies from Lyon to Paris after their first answer),
// the grid marks the cell as changed, the popover lists the change with its word diff, and
// "Restore previous value" brings the old value back, which the API confirms. The run bar then
// reverts a whole run after counting it first.

type RowsPage = { rows: { id: string; cells: Record<string, { value?: string; changedAt?: string }> }[] };

const LYON = "Headquarters in Lyon, 120 staff";
const PARIS = "Headquarters in Paris, 140 staff";

async function rerun(api: { call: (m: string, p: string, b?: unknown) => Promise<any> }, baseId: string, id: string) {
  const res = await api.call("POST", `/api/v1/bases/${baseId}/run`, { columnIds: [id] });
  expect(res.queued).toBe(2);
}

const runBar = (page: Page) => page.getByRole("status", { name: "Run progress" });

test("a changed cell is marked, its history shows the diff, and restoring brings the old value back", async ({
  page,
  api,
}) => {
  const base = await api.createBase("History", [
    { name: "Company", type: "short-text", isPrimary: true },
    {
      name: "Profile",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      tools: ["scrape-url"],
      instructions: "Where is it based, and how many people work there?",
    },
  ]);
  const profileId = base.sheetColumns.find((c) => c.name === "Profile")!.id;
  await api.addRows(base.baseId, [{ Company: "Shifting Sands" }, { Company: "Steady Co" }]);

  await signIn(page, `/bases/${base.baseId}`);
  const profile = await cellAt(page, 1, "Profile");
  await expect(profile).toContainText(LYON, { timeout: 30_000 });
  await expect(runBar(page)).toHaveAttribute("data-run-status", "done", { timeout: 30_000 });
  // A first answer replaces nothing: no changed mark yet.
  await expect(profile.locator("[data-changed]")).toHaveCount(0);

  await rerun(api, base.baseId, profileId);
  await expect(profile).toContainText(PARIS, { timeout: 30_000 });
  const mark = profile.locator("[data-changed]");
  await expect(mark).toHaveAttribute("title", /^Changed /);
  await expect(profile).toContainText("(changed");
  // Steady Co's answer came back the same: that is no change.
  await expect((await cellAt(page, 2, "Profile")).locator("[data-changed]")).toHaveCount(0);

  await profile.click();
  const popover = page.getByTestId("cell-popover");
  await popover.getByRole("tab", { name: "History" }).click();
  const entries = popover.getByTestId("history-entry");
  await expect(entries).toHaveCount(2);
  const newest = entries.first();
  await expect(newest).toContainText(/Generated · run_/);
  await expect(newest.locator("del")).toContainText(["Lyon", "120"]);
  await expect(newest.locator("ins")).toContainText(["Paris", "140"]);
  const source = newest.getByRole("link", { name: "The Quiet Rise of Heat Pumps" });
  await expect(source).toHaveAttribute("href", /^http:\/\/127\.0\.0\.1:\d+\/article$/);
  await expect(newest.locator("time")).toHaveAttribute("title", /\d{4}/);
  await page.screenshot({ path: `${ARTIFACTS}/history-popover.png` });
  await expectNoSeriousViolations(page, "the cell popover's history", "[data-testid=cell-popover]");

  await newest.getByRole("button", { name: "Restore previous value" }).click();
  await expect(popover.getByRole("status")).toHaveText(`Restored “${LYON}”.`);
  await expect(profile).toContainText(LYON);
  await expect(entries).toHaveCount(3);
  await expect(entries.first()).toContainText("Restored");
  const stored = await api.call<RowsPage>("GET", `/api/v1/bases/${base.baseId}/rows?expand=true`);
  const shifting = stored.rows.find((r) => r.cells.Company?.value === "Shifting Sands")!;
  expect(shifting.cells.Profile.value).toBe(LYON);
  await page.keyboard.press("Escape");
  await expect(popover).toBeHidden();
  await page.screenshot({ path: `${ARTIFACTS}/history-restored.png` });

  // "Changed since…": only the row whose answer really changed in the last 24 hours.
  await page.getByRole("button", { name: "Changed since…" }).click();
  const dialog = page.getByRole("dialog", { name: "Changed since…" });
  await dialog.getByLabel("Last 24 hours").check();
  await dialog.getByRole("button", { name: "Show changed rows" }).click();
  await expect(page.getByTestId("changed-since-chip")).toContainText("in Profile");
  await expect(grid(page)).toHaveAttribute("aria-rowcount", "2");
  await expect(await cellAt(page, 1, "Company")).toHaveText("Shifting Sands");
  await page.screenshot({ path: `${ARTIFACTS}/history-changed-since.png` });
  await page.getByRole("button", { name: "Remove the Changed since filter" }).click();
  await expect(grid(page)).toHaveAttribute("aria-rowcount", "3");
  await expect(await cellAt(page, 2, "Company")).toHaveText("Steady Co");
});

test("a finished run can be reverted after counting what it changed", async ({ page, api }) => {
  const base = await api.createBase("Revert", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Profile", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Where?" },
  ]);
  const profileId = base.sheetColumns.find((c) => c.name === "Profile")!.id;
  await api.addRows(base.baseId, [{ Company: "Shifting Tides" }, { Company: "Steady Works" }]);
  await signIn(page, `/bases/${base.baseId}`);
  const profile = await cellAt(page, 1, "Profile");
  await expect(profile).toContainText(LYON, { timeout: 30_000 });
  await expect(runBar(page)).toHaveAttribute("data-run-status", "done", { timeout: 30_000 });

  await rerun(api, base.baseId, profileId);
  await expect(profile).toContainText(PARIS, { timeout: 30_000 });
  const bar = runBar(page);
  await expect(bar).toHaveAttribute("data-run-status", "done", { timeout: 30_000 });
  await bar.getByRole("button", { name: "Revert run…" }).click();
  const confirm = page.getByRole("dialog", { name: "Revert 1 cell in 1 row?" });
  await expect(confirm).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/history-revert-run.png` });
  await confirm.getByRole("button", { name: "Revert run" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("Reverted 1 cell in 1 row.")).toBeVisible();
  await expect(profile).toContainText(LYON);
});

test.describe("schedules", () => {
  // The viewer is in New York: a cron at 06:00 in Berlin shows as midnight there.
  test.use({ timezoneId: "America/New_York", locale: "en-US" });

  test("a schedule made in the dialog is listed with its next runs in the viewer's time zone", async ({
    page,
    api,
  }) => {
    const base = await api.createBase("Scheduled", [
      { name: "Company", type: "short-text", isPrimary: true },
      { name: "Profile", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Where?" },
    ]);
    await signIn(page, `/bases/${base.baseId}`);
    await page.getByRole("toolbar", { name: "Table actions" }).getByRole("button", { name: "Schedules" }).click();
    const dialog = page.getByRole("dialog", { name: "Schedules" });
    await expect(dialog).toContainText("Times are shown in America/New_York");
    await expect(dialog).toContainText("No schedules yet.");
    await dialog.getByRole("button", { name: "New schedule" }).click();
    const form = dialog.getByRole("form", { name: "New schedule" });
    await form.getByLabel("Name").fill("Morning refresh");
    await form.getByLabel("Cron expression").check();
    await form.getByLabel("Cron", { exact: true }).fill("0 6 * * *");
    await form.getByLabel("Time zone").fill("Europe/Berlin");
    await form.getByLabel("Columns").selectOption("Profile");
    await form.getByLabel("Rows").selectOption("olderThanDays");
    await form.getByLabel("Older than (days)").fill("30");
    await form.getByLabel("Max credits per run").fill("200");
    await form.getByLabel("Changes announced").selectOption("model");
    await form.getByRole("button", { name: "Create schedule" }).click();

    const item = dialog.getByTestId("schedule");
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Morning refresh");
    await expect(item).toContainText("Cron 0 6 * * * (Europe/Berlin)");
    await expect(item).toContainText(
      "Refreshes Profile, cells older than 30 days, at most 200 credits a run; the model judges which text changes matter.",
    );
    const next = item.getByTestId("next-run");
    await expect(next).toHaveCount(3);
    // 06:00 in Berlin is midnight in New York, winter or summer alike.
    for (const t of await next.allTextContents()) expect(t).toMatch(/12:00\sAM\sE[SD]T$/);
    const stored = await api.call("GET", `/api/v1/bases/${base.baseId}/schedules`);
    expect(stored.schedules[0]).toMatchObject({
      cron: "0 6 * * *",
      timezone: "Europe/Berlin",
      maxCredits: 200,
      materiality: "model",
    });
    expect(await next.first().getAttribute("datetime")).toBe(stored.schedules[0].nextRunTimes[0]);
    await page.screenshot({ path: `${ARTIFACTS}/schedules-dialog.png` });
    await expectNoSeriousViolations(page, "the schedules dialog", "dialog[open]");

    await item.getByRole("button", { name: "Turn off" }).click();
    await expect(item).toContainText("Paused: it does not run until turned on.");
    await item.getByRole("button", { name: "Run now" }).click();
    await expect(page.getByText("Nothing to refresh right now.")).toBeVisible();
    await item.getByRole("button", { name: "Delete" }).click();
    await item.getByRole("button", { name: "Delete “Morning refresh”?" }).click();
    await expect(dialog).toContainText("No schedules yet.");
  });
});
