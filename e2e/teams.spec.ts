import { ARTIFACTS, cellAt, expect, signIn, test } from "./support/fixtures";
import { expectNoSeriousViolations } from "./support/axe";

// Teams and access in the web app: the owner (signed in with the workspace key) invites a viewer;
// the viewer accepts the link in another browser, sees the grid's write controls disabled with
// their reasons and the settings pages read-only; the owner then finds the invitation in the
// audit log.

test("an invited viewer sees read-only controls with their reasons; the owner audits the invitation", async ({
  page,
  browser,
  api,
}) => {
  test.setTimeout(120_000);
  const base = await api.createBase("Team base", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Summary", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], instructions: "Describe." },
  ]);
  await api.addRows(base.baseId, [{ Company: "Acme" }]);

  // The owner invites a viewer and copies the one-time link.
  await signIn(page, "/settings/members");
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Members" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("button", { name: "Invite member" }).click();
  const invite = page.getByRole("dialog", { name: "Invite a member" });
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("button", { name: "Create invitation" }).click();
  const linkField = invite.getByLabel("Invitation link", { exact: true });
  await expect(linkField).toHaveValue(/\/invite\?token=/);
  const link = await linkField.inputValue();
  await expectNoSeriousViolations(page, "invitation link");
  await page.screenshot({ path: `${ARTIFACTS}/teams-invite-link.png` });
  await invite.getByRole("button", { name: "Done" }).click();
  const pending = page.getByRole("table", { name: "Pending invitations" });
  await expect(pending.getByRole("row").filter({ hasText: "Viewer" }).first()).toBeVisible();
  await expectNoSeriousViolations(page, "members");

  // The viewer accepts in a browser of their own.
  const email = `viewer-${Date.now()}@example.com`;
  const password = "correct horse battery staple";
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link);
  await viewer.getByLabel(/email/i).fill(email);
  await viewer.getByLabel(/name/i).first().fill("Vera Viewer");
  for (const field of await viewer.getByLabel(/password/i).all()) await field.fill(password);
  const accepted = viewer.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/invitations/accept");
  await viewer.getByRole("button", { name: /accept|join|create account/i }).click();
  expect((await accepted).status()).toBe(201);
  // The page may move on by itself (to the bases page); let it, before going to the base.
  await viewer.waitForURL((url) => !url.pathname.startsWith("/invite"), { timeout: 5_000 }).catch(() => undefined);

  // The grid: every write control is disabled and says why.
  await viewer.goto(`/bases/${base.baseId}`);
  await expect(await cellAt(viewer, 1, "Company")).toHaveText("Acme");
  const toolbar = viewer.getByRole("toolbar", { name: "Table actions" });
  const reasons: [string | RegExp, string][] = [
    ["Row", "Viewers can't add rows (needs rows:write)"],
    ["Column", "Viewers can't add columns (needs schema:write)"],
    ["Import", "Viewers can't import rows (needs rows:write)"],
    ["Run all", "Viewers can't run AI cells (needs runs:write)"],
  ];
  for (const [name, reason] of reasons) {
    const button = toolbar.getByRole("button", { name, exact: true });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute("title", reason);
  }
  await expect(toolbar.getByText("Read-only")).toHaveAttribute("title", "Viewers can't edit rows (needs rows:write)");
  await expect(viewer.getByRole("grid")).toHaveAttribute("aria-readonly", "true");
  await expect(viewer.getByRole("textbox", { name: "Message the assistant" })).toBeDisabled();

  await viewer.getByRole("button", { name: "Column menu for Summary" }).click();
  const edit = viewer.getByRole("menuitem", { name: /^Edit column…/ });
  await expect(edit).toHaveAttribute("aria-disabled", "true");
  await expect(edit).toHaveAttribute("title", "Viewers can't edit columns (needs schema:write)");
  await expect(viewer.getByRole("menuitem", { name: /^Delete column…/ })).toHaveAttribute("aria-disabled", "true");
  await viewer.screenshot({ path: `${ARTIFACTS}/teams-viewer-grid.png` });
  await viewer.keyboard.press("Escape");

  // Double-clicking a cell explains instead of opening an editor.
  await (await cellAt(viewer, 1, "Company")).dblclick();
  await expect(viewer.getByText("Viewers can't edit rows (needs rows:write)").first()).toBeVisible();
  await expect(viewer.getByRole("textbox", { name: "Edit Company" })).toHaveCount(0);

  // The settings pages are read-only for them.
  await viewer.goto("/settings/members");
  const row = viewer.getByRole("row").filter({ hasText: email });
  await expect(row).toBeVisible();
  await expect(viewer.getByRole("button", { name: "Invite member" })).toHaveAttribute(
    "title",
    "Viewers can't invite members (needs members:manage)",
  );
  await expect(viewer.getByRole("button", { name: "Invite member" })).toBeDisabled();
  await expect(row.getByRole("combobox", { name: `Role of ${email}` })).toBeDisabled();
  await expect(viewer.getByRole("heading", { name: "Pending invitations" })).toHaveCount(0);
  await viewer.screenshot({ path: `${ARTIFACTS}/teams-viewer-members.png` });

  // A viewer still makes their own keys, with only the scopes they hold.
  await viewer.goto("/settings/keys");
  await viewer.getByRole("button", { name: "New key" }).click();
  const keyDialog = viewer.getByRole("dialog", { name: "New API key" });
  await expect(keyDialog.getByRole("checkbox", { name: "rows:read" })).toBeChecked();
  await expect(keyDialog.getByRole("checkbox", { name: "rows:write" })).toHaveCount(0);
  await keyDialog.getByRole("button", { name: "Cancel" }).click();

  await viewer.goto("/settings/audit");
  await expect(viewer.getByText("Viewers can't read the audit log (needs audit:read).")).toBeVisible();
  await expect(viewer.getByRole("table", { name: "Audit log" })).toHaveCount(0);
  await viewerContext.close();

  // The owner reads the audit log: the invitation made and accepted, newest first.
  await page.goto("/settings/audit");
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.locator("tr[data-action='invitation.accept']").first()).toBeVisible();
  await expect(log.locator("tr[data-action='invitation.create']").first()).toBeVisible();
  const actions = await log.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
  expect(actions.indexOf("invitation.accept")).toBeLessThan(actions.indexOf("invitation.create"));
  await expectNoSeriousViolations(page, "audit log");

  await page.getByLabel("Action", { exact: true }).fill("invitation.accept");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(log.locator("tbody tr").first()).toHaveAttribute("data-action", "invitation.accept");
  await expect(log.locator("tbody tr:not([data-action='invitation.accept'])")).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/teams-audit.png` });

  // At a phone's width (390 px) each entry stacks, its address and summary on screen: nothing
  // scrolls sideways, and every cell lies within the window.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(log.locator("tr[data-action='invitation.create']").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const first = log.locator("tbody tr").first();
  await first.scrollIntoViewIfNeeded();
  for (const label of ["Time", "Actor", "Action", "Target", "IP", "Summary"]) {
    const cell = first.locator(`td[data-label='${label}']`);
    await expect(cell, label).toBeInViewport({ ratio: 1 });
    const box = (await cell.boundingBox())!;
    expect([box.x >= 0, box.x + box.width <= 390], label).toEqual([true, true]);
  }
  await expect(first.locator("td[data-label='IP']")).toContainText(/\d|—/);
  await page.screenshot({ path: `${ARTIFACTS}/teams-audit-390.png`, fullPage: true });
  await expectNoSeriousViolations(page, "audit log at 390 px");
  await page.setViewportSize({ width: 1440, height: 900 });

  // The workspace's settings: an owner sets how long the audit log keeps its entries.
  await page.goto("/settings/workspace");
  await page.getByRole("checkbox", { name: "Keep entries forever" }).uncheck();
  await page.getByRole("spinbutton", { name: "Keep entries for" }).fill("400");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved the workspace's settings.")).toBeVisible();
  await expectNoSeriousViolations(page, "workspace settings");

  // The members page now lists the viewer.
  await page.goto("/settings/members");
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("Vera Viewer");
});

test("an owner adds a secret, sees only its last four characters, and deletes it", async ({ page, api }) => {
  const value = `sk_e2e_${Date.now()}_wxyz`;
  await signIn(page, "/settings/secrets");
  await expect(page.getByRole("heading", { name: "Secrets", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Secrets" })).toHaveAttribute("aria-current", "page");
  const valueField = page.getByLabel("Value");
  await expect(valueField).toHaveAttribute("type", "password");
  await page.getByLabel("Name").fill("e2e_token");
  await expect(page.getByLabel("Name")).toHaveValue("E2E_TOKEN");
  await valueField.fill(value);
  await page.getByRole("button", { name: "Add secret" }).click();
  await expect(page.getByText("Stored E2E_TOKEN, ending in wxyz.")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "E2E_TOKEN" });
  await expect(row).toContainText("…wxyz");
  await expect(valueField).toHaveValue("");
  expect(await page.content()).not.toContain(value);
  await page.screenshot({ path: `${ARTIFACTS}/settings-secrets.png` });
  await expectNoSeriousViolations(page, "secrets settings");

  // The same name again is refused with the API's message.
  await page.getByLabel("Name").fill("E2E_TOKEN");
  await valueField.fill("another-value");
  await page.getByRole("button", { name: "Add secret" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();

  await row.getByRole("button", { name: "Delete E2E_TOKEN" }).click();
  await page.getByRole("button", { name: "Delete secret" }).click();
  await expect(page.getByText("No secrets yet.")).toBeVisible();
  expect((await api.call<{ secrets: unknown[] }>("GET", "/api/v1/secrets")).secrets).toEqual([]);
});
