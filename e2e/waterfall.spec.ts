import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// An email waterfall built in the UI: a workspace secret stored on the Secrets page, a column
// filled by two data providers in order, run over 50 rows, and one cell's step trace. The
// providers are a real local server with known answers, so the cells, the credits charged and
// the calls each provider received are known exactly.

const ROWS = 50;
const SECRET = "PROVIDER_KEY";

// Row i's kind, by i % 5: the pattern provider finds 0 and 1; it answers 2 with a value that fails
// the check; it has nothing for 3 and 4. The premium provider finds 2 and 3, and has nothing for 4.
const kindOf = (i: number) => (["pattern", "pattern", "invalid", "premium", "none"] as const)[i % 5];
const domain = (i: number) => `co${i}.example`;
const name = (i: number) => `Person ${i}`;
const CREDITS = { pattern: { found: 1, notFound: 0 }, premium: { found: 3, notFound: 1 } };
const expectedCredits = {
  pattern: CREDITS.pattern.found,
  invalid: CREDITS.pattern.found + CREDITS.premium.found,
  premium: CREDITS.pattern.notFound + CREDITS.premium.found,
  none: CREDITS.pattern.notFound + CREDITS.premium.notFound,
};

interface Call {
  path: string;
  domain: string;
  authorized: boolean;
}

/** The two providers on one local server: /pattern and /premium, both behind the bearer token. */
async function startProviders(token: string) {
  const calls: Call[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const d = url.searchParams.get("domain") ?? "";
    const authorized = req.headers.authorization === `Bearer ${token}`;
    calls.push({ path: url.pathname, domain: d, authorized });
    const i = Number(/^co(\d+)\.example$/.exec(d)?.[1] ?? -1);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!authorized) return send(401, { error: "missing or wrong API key" });
    if (i < 0) return send(404, {});
    const kind = kindOf(i);
    if (url.pathname === "/pattern") {
      if (kind === "pattern") return send(200, { email: `person${i}@${d}` });
      if (kind === "invalid") return send(200, { email: "unknown" });
      return send(404, { email: null });
    }
    if (url.pathname === "/premium") {
      if (kind === "invalid" || kind === "premium") return send(200, { data: { email: `ceo@${d}` } });
      return send(404, { data: null });
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
    const steps = editor.getByLabel("Steps", { exact: true });
    // What was written for the HTTP column is kept when the kind changes: the steps replace it.
    const settings = {
      steps: [
        step("Pattern", `${providers.url}/pattern?domain={{Domain}}&name={{Name}}`, "email"),
        step("Premium", `${providers.url}/premium?domain={{Domain}}`, "data.email"),
      ],
    };
    await steps.fill(JSON.stringify(settings, null, 2));
    await page.screenshot({ path: `${ARTIFACTS}/waterfall-editor.png` });
    await editor.getByRole("button", { name: "Add column" }).click();
    await expect(editor).toBeHidden();
    const header = grid(page).locator('[data-column="Email"]');
    await expect(header).toBeVisible();

    // The column is saved with its steps as written; creating it asked no provider.
    const structure = await api.call<{ sheetColumns: { name: string; fill: any }[] }>(
      "GET",
      `/api/v1/bases/${base.baseId}/base-structure`,
    );
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
