import type { Locator, Page } from "@playwright/test";
import { CREDITS, domain, kindOf, startProviders } from "./support/email-providers";
import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// An email waterfall built in the UI: a workspace secret stored on the Secrets page, a column
// filled by two data providers in order, run over 50 rows, and one cell's step trace. The
// providers are a real local server with known answers, so the cells, the credits charged and
// the calls each provider received are known exactly.

const ROWS = 50;
const SECRET = "PROVIDER_KEY";

const name = (i: number) => `Person ${i}`;
const expectedCredits = {
  pattern: CREDITS.pattern.found,
  invalid: CREDITS.pattern.found + CREDITS.premium.found,
  premium: CREDITS.pattern.notFound + CREDITS.premium.found,
  none: CREDITS.pattern.notFound + CREDITS.premium.notFound,
};

const step = (label: "Pattern" | "Premium", url: string, extract: string) => ({
  kind: "http",
  label,
  request: {
    method: "GET",
    url,
    headers: { Authorization: `Bearer {{secret:${SECRET}}}` },
  },
  extract,
  validate: '$contains($value, "@")',
  credits: CREDITS[label === "Pattern" ? "pattern" : "premium"],
  // No retries and no answer cache: every call the providers count is one the cell made.
  retries: 0,
  cacheTtlSeconds: 0,
});

/** A step's settings as its card shows them: the step without its kind and label. */
const settingsOf = ({ kind: _, label: __, ...rest }: ReturnType<typeof step>) => JSON.stringify(rest, null, 2);

/** A mouse drag by a handle onto another element in small moves, dropped once the live region
 * says the step is over it (a busy machine may measure the list late). */
async function drag(page: Page, from: Locator, to: Locator, live: Locator, over: RegExp) {
  await from.hover(); // it waits for the handle to stand still: a keyboard move scrolls smoothly
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 10, { steps: 4 });
  await expect(live).toHaveText(/^Picked up/);
  let wiggle = 0;
  await expect(async () => {
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 - 10 - (wiggle++ % 2), { steps: 8 });
    await expect(live).toHaveText(over, { timeout: 1000 });
  }).toPass();
  await page.mouse.up();
}

/** Presses `key` until the live region says `text`: a key pressed before the lifted list is measured is lost. */
const pressUntil = (page: Page, live: Locator, key: string, text: string | RegExp) =>
  expect(() => page.keyboard.press(key).then(() => expect(live).toHaveText(text, { timeout: 1000 }))).toPass();

test("an email waterfall over two providers: built in the editor, run on 50 rows, traced", async ({ page, api }) => {
  test.setTimeout(180_000);
  const token = `wf_${Date.now()}_9f3c`;
  const providers = await startProviders(token);
  try {
    // A retried test finds the secret of its first try.
    await api.call("DELETE", `/api/v1/secrets/${SECRET}`).catch(() => undefined);

    // The secret, stored on the Secrets page.
    await signIn(page, "/settings/secrets");
    await page.getByLabel("Name").fill(SECRET);
    await page.getByLabel("Value").fill(token);
    await page.getByRole("button", { name: "Add secret" }).click();
    await expect(page.getByText(`Stored ${SECRET}, ending in 9f3c.`)).toBeVisible();

    // The base and its rows through the API.
    const base = await api.createBase("Leads", [
      { name: "Name", type: "short-text", isPrimary: true },
      { name: "Domain", type: "short-text" },
    ]);
    const added = await api.addRows(
      base.baseId,
      Array.from({ length: ROWS }, (_, i) => ({ Name: name(i), Domain: domain(i) })),
    );
    expect(added.rows).toHaveLength(ROWS);

    // The waterfall column, built in the column editor.
    await page.goto(`/bases/${base.baseId}`);
    await expect(await cellAt(page, 1, "Name")).toHaveText(name(0));
    await page.getByRole("button", { name: "Column", exact: true }).click();
    const editor = page.getByRole("dialog", { name: "New column" });
    await editor.getByLabel("Name", { exact: true }).fill("Email");
    // First one provider as an HTTP column, tried on the first row before anything is saved.
    await editor.getByLabel("Filled by HTTP").check();
    const {
      kind: _,
      label: __,
      validate: ___,
      ...pattern
    } = step("Pattern", `${providers.url}/pattern?domain={{Domain}}&name={{Name}}`, "email");
    await editor.getByLabel("Request", { exact: true }).fill(JSON.stringify(pattern, null, 2));
    await editor.getByRole("button", { name: "Test on this row" }).click();
    const preview = editor.getByTestId("fill-preview");
    await expect(preview).toContainText("Found");
    await expect(preview).toContainText(`person0@${domain(0)}`);
    await page.screenshot({ path: `${ARTIFACTS}/http-test-on-row.png` });
    expect(providers.calls).toEqual([{ path: "/pattern", domain: domain(0), authorized: true }]);
    providers.calls.splice(0);
    await editor.getByLabel("Filled by waterfall").check();
    // The waterfall starts from the template's three steps, one card each; they are removed.
    const cards = editor.getByTestId("waterfall-step");
    const box = (i: number) => cards.nth(i).locator("textarea");
    const labels = () =>
      cards.getByPlaceholder("Label").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    await expect.poll(labels).toEqual(["Pattern guess", "Provider", "Web search"]);
    for (let i = 0; i < 3; i++) await editor.getByRole("button", { name: "Remove step 1" }).click();
    await expect(cards).toHaveCount(0);
    // The providers are added in the wrong order, with a formula step between them for a while.
    const patternStep = step("Pattern", `${providers.url}/pattern?domain={{Domain}}&name={{Name}}`, "email");
    const premiumStep = step("Premium", `${providers.url}/premium?domain={{Domain}}`, "data.email");
    const add = async (kind: string, s?: typeof patternStep, settings = s && settingsOf(s)) => {
      await editor.getByLabel("Kind of step to add").selectOption(kind);
      await editor.getByRole("button", { name: "Add step" }).click();
      const card = cards.last();
      if (s) await card.getByPlaceholder("Label").fill(s.label);
      if (settings) await card.locator("textarea").fill(settings);
    };
    // Premium's settings start with a slip in its JSON, shown on its card as it is typed.
    await add("HTTP request", premiumStep, "{ nope");
    await expect(cards.nth(0)).toContainText("Not valid JSON");
    // Then with an empty extract, which only the API refuses.
    await box(0).fill(settingsOf({ ...premiumStep, extract: "" }));
    await add("HTTP request", patternStep);
    await add("Formula");
    await expect.poll(labels).toEqual(["Premium", "Pattern", "Formula"]);
    // By keyboard: Space on Pattern's handle picks it up, ArrowUp moves it, Space drops it.
    const live = editor.locator('[id^="DndLiveRegion"]');
    await editor.getByRole("button", { name: "Drag step 2, Pattern" }).focus();
    await page.keyboard.press("Space");
    await expect(live).toHaveText("Picked up step 2, Pattern.");
    await pressUntil(page, live, "ArrowUp", "Step 2, Pattern, is over position 1."); // at the top, more do nothing
    await page.screenshot({ path: `${ARTIFACTS}/waterfall-steps-keyboard.png` });
    await page.keyboard.press("Space");
    await expect(live).toHaveText("Step 2, Pattern, moved to position 1.");
    await expect.poll(labels).toEqual(["Pattern", "Premium", "Formula"]);
    // Escape puts a picked-up step back where it was, and leaves the dialog open. Each key waits
    // for its announcement: a key pressed before the last one landed can be lost.
    await page.keyboard.press("Space");
    await expect(live).toHaveText("Picked up step 1, Pattern.");
    await pressUntil(page, live, "ArrowDown", /is over position [23]\.$/); // if both land, it is further down
    await page.keyboard.press("Escape");
    await expect(live).toHaveText("Moving step 1, Pattern, was cancelled; it stays at position 1.");
    await expect.poll(labels).toEqual(["Pattern", "Premium", "Formula"]);
    // By mouse: the formula step dragged by its handle to the top, then removed.
    const formulaHandle = editor.getByRole("button", { name: "Drag step 3, Formula" });
    await drag(page, formulaHandle, cards.nth(0).getByRole("button").first(), live, /is over position 1\.$/);
    await expect.poll(labels).toEqual(["Formula", "Pattern", "Premium"]);
    await expect(live).toHaveText("Step 3, Formula, moved to position 1.");
    await editor.getByRole("button", { name: "Move step 1 down" }).click();
    await expect.poll(labels).toEqual(["Pattern", "Formula", "Premium"]);
    await editor.getByRole("button", { name: "Remove step 2" }).click();
    await expect.poll(labels).toEqual(["Pattern", "Premium"]);
    // The API's error about steps[1] lands on Premium's card, now the second.
    await editor.getByRole("button", { name: "Add column" }).click();
    await expect(cards.nth(1).getByRole("alert")).toContainText("extract: Too small");
    await expect(cards.nth(0).getByRole("alert")).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/waterfall-steps-error.png` });
    await box(1).fill(settingsOf(premiumStep));
    await page.screenshot({ path: `${ARTIFACTS}/waterfall-editor.png` });
    await editor.getByRole("button", { name: "Add column" }).click();
    await expect(editor).toBeHidden();
    const header = grid(page).locator('[data-column="Email"]');
    await expect(header).toBeVisible();

    // The column is saved with its steps in the order they were moved to; creating it asked no provider.
    type Structure = { sheetColumns: { name: string; fill: any }[] };
    const structure = await api.call<Structure>("GET", `/api/v1/bases/${base.baseId}/base-structure`);
    const email = structure.sheetColumns.find((c) => c.name === "Email");
    expect(email?.fill).toMatchObject({ kind: "waterfall", steps: [{ label: "Pattern" }, { label: "Premium" }] });
    expect(providers.calls).toEqual([]);

    // Run the column over the existing rows from its menu.
    await header.getByRole("button", { name: "Column menu for Email" }).click();
    await page.getByRole("menuitem", { name: "Re-run column…" }).click();
    const dialog = page.getByRole("dialog", { name: "Re-run “Email”?" });
    await dialog.getByRole("button", { name: `Run ${ROWS} cells` }).click();
    await expect(dialog).toBeHidden();

    type Run = { id: string; status: string; creditsSpent: number; counts: Record<string, number> };
    await expect
      .poll(
        async () =>
          (await api.call<{ runs: Run[] }>("GET", `/api/v1/bases/${base.baseId}/runs`)).runs[0]?.status ?? "none",
        { timeout: 90_000, intervals: [500] },
      )
      .toBe("done");
    const run = (await api.call<{ runs: Run[] }>("GET", `/api/v1/bases/${base.baseId}/runs`)).runs[0];
    const byKind = (k: ReturnType<typeof kindOf>) =>
      Array.from({ length: ROWS }, (_, i) => i).filter((i) => kindOf(i) === k);
    const notFoundRows = byKind("none").length;
    expect(run.counts).toMatchObject({ done: ROWS - notFoundRows, not_found: notFoundRows, error: 0, pending: 0 });

    // The grid: found addresses, and "no data" where neither provider had one.
    await expect(await cellAt(page, 1, "Email")).toHaveText("person0@co0.example", { timeout: 20_000 });
    await expect(await cellAt(page, 3, "Email")).toHaveText("ceo@co2.example");
    await expect(await cellAt(page, 4, "Email")).toHaveText("ceo@co3.example");
    await expect(await cellAt(page, 5, "Email")).toHaveText("no data");
    await expect(await cellAt(page, 10, "Email")).toHaveText("no data");
    await page.screenshot({ path: `${ARTIFACTS}/waterfall-grid.png` });

    // The trace of a row whose pattern answer failed the check: invalid, then found by premium.
    await (await cellAt(page, 3, "Email")).click();
    const popover = page.getByTestId("cell-popover");
    await expect(popover).toBeVisible();
    const trace = popover.getByTestId("trace-step");
    await expect(trace).toHaveCount(2);
    await expect(trace.nth(0)).toContainText("Pattern");
    await expect(trace.nth(0)).toContainText("invalid");
    await expect(trace.nth(0)).toContainText(`${CREDITS.pattern.found} cr`);
    await expect(trace.nth(1)).toContainText("Premium");
    await expect(trace.nth(1)).toContainText("found");
    await expect(trace.nth(1)).toContainText(`${CREDITS.premium.found} cr`);
    await page.screenshot({ path: `${ARTIFACTS}/waterfall-trace.png` });
    await page.keyboard.press("Escape");
    await expect(popover).toBeHidden();

    // A row found by the pattern provider: premium was never asked.
    await (await cellAt(page, 2, "Email")).click();
    await expect(trace).toHaveCount(2);
    await expect(trace.nth(0)).toContainText("found");
    await expect(trace.nth(1)).toContainText("not run");
    await page.keyboard.press("Escape");
    await expect(popover).toBeHidden();

    // A row neither provider knew: two misses, the premium one charged its notFound credit.
    await (await cellAt(page, 5, "Email")).click();
    await expect(popover).toContainText("No data");
    await expect(trace).toHaveCount(2);
    await expect(trace.nth(0)).toContainText(new RegExp(`no data\\s*${CREDITS.pattern.notFound} cr`));
    await expect(trace.nth(1)).toContainText(new RegExp(`no data\\s*${CREDITS.premium.notFound} cr`));
    await page.screenshot({ path: `${ARTIFACTS}/waterfall-trace-not-found.png` });
    await page.keyboard.press("Escape");

    // Every cell, through the API: its value, status and step statuses.
    const rows = await api.call<{ rows: { id: string; cells: Record<string, any> }[] }>(
      "GET",
      `/api/v1/bases/${base.baseId}/rows?expand=true`,
    );
    const byName = new Map(rows.rows.map((r) => [r.cells.Name.value, r]));
    const expectedCell = {
      pattern: (i: number) => ({ value: `person${i}@${domain(i)}`, status: "done", steps: ["found", "skipped"] }),
      invalid: (i: number) => ({ value: `ceo@${domain(i)}`, status: "done", steps: ["invalid", "found"] }),
      premium: (i: number) => ({ value: `ceo@${domain(i)}`, status: "done", steps: ["not_found", "found"] }),
      none: (_: number) => ({ value: "", status: "not_found", steps: ["not_found", "not_found"] }),
    };
    const rowIdOf = new Map<number, string>();
    for (let i = 0; i < ROWS; i++) {
      const row = byName.get(name(i));
      expect(row, name(i)).toBeTruthy();
      rowIdOf.set(i, row!.id);
      const cell = row!.cells.Email;
      expect(
        { value: cell.value, status: cell.status, steps: cell.metadata.steps.map((s: { status: string }) => s.status) },
        name(i),
      ).toEqual(expectedCell[kindOf(i)](i));
    }

    // The ledger: each row charged exactly what its providers' answers cost, nothing else.
    type Entry = { amount: number; reason: string; baseId: string | null; rowId: string | null };
    const ledger = await api.call<{ entries: Entry[] }>("GET", "/api/v1/credits?limit=200");
    const charged = new Map<string, number>();
    for (const e of ledger.entries.filter((e) => e.baseId === base.baseId)) {
      expect(e.reason).toBe("provider_call");
      charged.set(e.rowId!, (charged.get(e.rowId!) ?? 0) - e.amount);
    }
    const perRow = Array.from({ length: ROWS }, (_, i) => charged.get(rowIdOf.get(i)!) ?? 0);
    expect(perRow).toEqual(Array.from({ length: ROWS }, (_, i) => expectedCredits[kindOf(i)]));
    const total = perRow.reduce((a, b) => a + b, 0);
    // 20 × 1 + 10 × (1 + 3) + 10 × (0 + 3) + 10 × (0 + 1)
    expect(total).toBe(100);
    expect(run.creditsSpent).toBe(total);

    // The providers: every call carried the secret; pattern was asked once per row, premium only
    // for the rows pattern did not settle, once each.
    expect(providers.calls.filter((c) => !c.authorized)).toEqual([]);
    const asked = (path: string) =>
      providers.calls
        .filter((c) => c.path === path)
        .map((c) => c.domain)
        .sort();
    expect(asked("/pattern")).toEqual(Array.from({ length: ROWS }, (_, i) => domain(i)).sort());
    expect(asked("/premium")).toEqual(
      [...byKind("invalid"), ...byKind("premium"), ...byKind("none")].map(domain).sort(),
    );
    expect(providers.calls).toHaveLength(ROWS + 30);
  } finally {
    await providers.close();
  }
});
