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

  await api.call("POST", `/api/v1/bases/${base.baseId}/update-rows`, { rows: [{ id: rowId, cells: { Note: "older" } }] });
  await firstRead;
  await api.call("POST", `/api/v1/bases/${base.baseId}/update-rows`, { rows: [{ id: rowId, cells: { Note: "newer" } }] });
  await expect(note).toHaveText("newer");
  await held!();
  // Give the late answer time to be applied, were it applied.
  await page.waitForTimeout(500);
  await expect(note).toHaveText("newer");
});
