import { ARTIFACTS, cellAt, expect, grid, signIn, test } from "./support/fixtures";

// The assistant designs a table from the bases page: its text streams in, each manageColumn call
// shows as a card (one of them fails), the new base opens, and its AI column fills live.

test("the chat creates a base, shows tool calls, and the new columns fill live", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const panel = page.getByRole("complementary", { name: "Assistant" });
  await expect(panel).toBeVisible();

  await panel.getByLabel("Base name (optional)").fill("Research");
  await panel.getByLabel("Message the assistant").fill("Set up a company research table, please.");
  await panel.getByRole("button", { name: "Send" }).click();

  const log = panel.getByRole("log", { name: "Conversation" });
  await expect(log).toContainText("I'll set up the table");
  const cards = log.getByRole("article");
  await expect(cards.filter({ hasText: "Create column Company" })).toHaveAttribute("data-state", "done");
  await expect(cards.filter({ hasText: "Create column Summary" })).toContainText("Inputs");
  const failed = cards.filter({ hasText: "Update column Company" });
  await expect(failed).toHaveAttribute("data-state", "error");
  await expect(failed).toContainText("dependency_cycle");

  // When the turn ends the app opens the new base, with the history in the panel.
  await page.waitForURL(/\/bases\/[A-Za-z0-9]{8}$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Research" })).toBeVisible();
  for (const name of ["Company", "Website", "Summary"])
    await expect(grid(page).locator(`[data-column="${name}"]`)).toBeVisible();
  await expect(panel.getByRole("log")).toContainText("Your table is ready");
  await expect(panel.getByRole("article")).toHaveCount(4);

  // Paste 20 rows; the AI column goes from spinner to value without a reload.
  const tsv = [
    "Company\tWebsite",
    ...Array.from({ length: 20 }, (_, i) => `Company ${i + 1}\tcompany${i + 1}.example`),
  ].join("\n");
  await grid(page).focus();
  await grid(page).evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData("text/plain", text);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, tsv);
  await expect(page.getByText("Pasted 20 rows.")).toBeVisible();
  await expect(await cellAt(page, 20, "Summary")).toContainText("Company 20", { timeout: 30_000 });
  await expect(await cellAt(page, 1, "Summary")).toContainText("AI(");
  await page.screenshot({ path: `${ARTIFACTS}/chat-panel.png` });

  // A follow-up message on the base streams into the same conversation.
  await panel.getByLabel("Message the assistant").fill("Thanks!");
  await panel.getByLabel("Message the assistant").press("Enter");
  await expect(panel.getByRole("log")).toContainText("Tell me which columns");

  // The panel collapses and opens again.
  await panel.getByRole("button", { name: "Collapse the assistant" }).click();
  await expect(panel).toBeHidden();
  await page.getByRole("button", { name: "Assistant" }).click();
  await expect(page.getByRole("complementary", { name: "Assistant" })).toBeVisible();
});
