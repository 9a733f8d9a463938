import { cellAt, expect, signIn, test } from "./support/fixtures";

// Live updates refetch a changed row. Answers can come back out of order: a refetch that an
// older change started must not overwrite the row with what it read before a newer change.

test("a late answer to an older refetch does not overwrite a newer value", async ({ page, api }) => {
  const base = await api.createBase("Live order", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Note", type: "short-text" },
  ]);
  const { rows } = await api.addRows(base.baseId, [{ Company: "Acme", Note: "start" }]);
  const rowId = rows[0].id;
  await signIn(page, `/bases/${base.baseId}`);
  await expect(page.locator('[data-live="live"]')).toBeVisible();
  const note = await cellAt(page, 1, "Note");
  await expect(note).toHaveText("start");

  // The first refetch of the row reads at once but answers only after the second has landed.
  let held: (() => Promise<void>) | null = null;
  const firstRead = new Promise<void>((resolve) => {
    void page.route(`**/api/v1/bases/${base.baseId}/rows/${rowId}?expand=true`, async (route) => {
      if (held) return route.continue();
      const response = await route.fetch();
      held = () => route.fulfill({ response });
      resolve();
    });
  });

  await api.call("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
    rows: [{ id: rowId, cells: { Note: "older" } }],
  });
  await firstRead;
  await api.call("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
    rows: [{ id: rowId, cells: { Note: "newer" } }],
  });
  await expect(note).toHaveText("newer");
  await held!();
  // Give the late answer time to be applied, were it applied.
  await page.waitForTimeout(500);
  await expect(note).toHaveText("newer");
});

// Changes faster than the server answers: the reads of changed rows stay six at a time, and a row
// changed again before its read started is read once, not once per change.
test("changes faster than the reads keep the refetches bounded", async ({ page, api }) => {
  const ROWS = 40;
  const CHANGES = 10;
  const base = await api.createBase("Live pool", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Note", type: "short-text" },
  ]);
  const { rows } = await api.addRows(
    base.baseId,
    Array.from({ length: ROWS }, (_, i) => ({ Company: `C${i + 1}`, Note: "start" })),
  );
  await signIn(page, `/bases/${base.baseId}`);
  await expect(page.locator('[data-live="live"]')).toBeVisible();
  const note = await cellAt(page, 1, "Note");
  await expect(note).toHaveText("start");

  // Each read of one row answers after 300 ms, slower than the changes come.
  let inFlight = 0;
  let most = 0;
  let reads = 0;
  await page.route(
    (url) => /\/rows\/sr_[^/]+$/.test(url.pathname) && url.searchParams.get("expand") === "true",
    async (route) => {
      reads++;
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 300));
      await route.continue().finally(() => inFlight--);
    },
  );
  let readsBeforeLast = 0;
  for (let n = 1; n <= CHANGES; n++) {
    readsBeforeLast = reads;
    await api.call("POST", `/api/v1/bases/${base.baseId}/update-rows`, {
      rows: rows.map((r) => ({ id: r.id, cells: { Note: `v${n}` } })),
    });
    await page.waitForTimeout(150);
  }
  await expect(note).toHaveText(`v${CHANGES}`, { timeout: 15_000 });
  await page.waitForTimeout(1_000);
  expect(most).toBeLessThanOrEqual(6);
  // After the last change, each row is read once more at most (and the reads then in flight).
  expect(reads - readsBeforeLast).toBeLessThanOrEqual(ROWS + 6);
});
