import { ARTIFACTS, expect, signIn, test } from "./support/fixtures";

// A large run from the toolbar: the dialog estimates it, the run bar shows live progress, the
// run is cancelled, and "Retry N failed" runs again exactly the failed and cancelled cells.

const ROWS = 300;

test("start a large run, watch it, cancel it, retry what failed", async ({ page, api }, testInfo) => {
  test.setTimeout(120_000);
  const base = await api.createBase("Runs", [
    { name: "Company", type: "short-text", isPrimary: true },
    {
      name: "Industry",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      instructions: "The industry.",
      columnOptions: { autoRun: "never" },
    },
  ]);
  // Nothing runs on insert (autoRun never); every tenth company fails its first model call, and
  // two of the first rows answer their first call only after 30 s, so the run cannot end before
  // it is cancelled however fast the rest goes (were one cancelled before its first call, the
  // retry waits those 30 s). The fake model remembers which companies it refused or kept
  // waiting: a retried test names new ones.
  const company = (i: number) =>
    i % 10 === 0 ? `Flaky ${i}.${testInfo.retry}` : i === 1 || i === 2 ? `Slow ${i}.${testInfo.retry}` : `Company ${i}`;
  await api.addRows(
    base.baseId,
    Array.from({ length: ROWS }, (_, i) => ({ Company: company(i) })),
  );

  await signIn(page, `/bases/${base.baseId}`);
  await page.getByRole("button", { name: "Run all" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("300", { exact: true })).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/runs-estimate.png` });
  await dialog.getByRole("button", { name: "Run 300 cells" }).click();

  const bar = page.getByRole("status", { name: "Run progress" });
  await expect(bar).toHaveAttribute("data-run-status", "running");
  // Progress moves: some cells done, some failed, many still pending.
  await expect(bar.getByTestId("run-counts")).toHaveText(/^([1-9]\d*) done · ([1-9]\d*) errors · \d+ pending/, {
    timeout: 30_000,
  });
  await page.screenshot({ path: `${ARTIFACTS}/runs-progress.png` });

  await bar.getByRole("button", { name: "Cancel run" }).click();
  await expect(bar).toHaveAttribute("data-run-status", "cancelled");
  const counts = await bar.getByTestId("run-counts").textContent();
  const cancelled = Number(/(\d[\d,]*) cancelled/.exec(counts ?? "")?.[1].replace(/,/g, "") ?? 0);
  const errors = Number(/(\d[\d,]*) errors/.exec(counts ?? "")?.[1].replace(/,/g, "") ?? 0);
  expect(cancelled).toBeGreaterThan(0);
  expect(errors).toBeGreaterThan(0);
  await expect(page.getByText("Cancelled", { exact: true }).first()).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/runs-cancelled.png` });

  const retry = bar.getByRole("button", { name: `Retry ${(cancelled + errors).toLocaleString("en-US")} failed` });
  await retry.click();
  // The retry run is short: the bar may show it running, or already done.
  await expect(bar).toHaveAttribute("data-run-status", /^(running|done)$/, { timeout: 30_000 });
  // The retry run runs exactly the failed and cancelled cells. Flaky rows that were cancelled
  // before their first call fail now, once; those that had failed succeed.
  await expect(bar).toHaveAttribute("data-run-status", "done", { timeout: 60_000 });
  const retried = (await bar.getByTestId("run-counts").textContent()) ?? "";
  const [, doneNow, errorsNow] = /^(\d+) done · (\d+) errors · 0 pending$/.exec(retried) ?? [];
  expect(Number(doneNow) + Number(errorsNow)).toBe(cancelled + errors);
  expect(Number(errorsNow)).toBeLessThan(cancelled + errors);
  const rows = await api.call<{ rows: { cells: Record<string, { status: string }> }[] }>(
    "GET",
    `/api/v1/bases/${base.baseId}/rows?expand=true`,
  );
  expect(rows.rows).toHaveLength(ROWS);
  expect(rows.rows.filter((r) => r.cells.Industry.status === "cancelled")).toEqual([]);
  await page.screenshot({ path: `${ARTIFACTS}/runs-retried.png` });
});
