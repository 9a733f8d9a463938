import { ARTIFACTS, cellAt, expect, signIn, test } from "./support/fixtures";

// How the popover presents grounded sources (links with their excerpts) and a low confidence.
// The column uses scrape-url: the e2e model asks for a local article page, the engine fetches it
// and keeps it as the cell's source (see support/fake-llm-server.ts). Nothing is stubbed here.

test("the popover shows sources as links with excerpts, and low confidence is tinted", async ({ page, api }) => {
  const base = await api.createBase("Sourced", [
    { name: "Company", type: "short-text", isPrimary: true },
    {
      name: "Products",
      type: "short-text",
      isAiEnabled: true,
      inputColumns: ["Company"],
      tools: ["scrape-url"],
      instructions: "What does it sell?",
    },
  ]);
  await api.addRows(base.baseId, [{ Company: "Acme" }, { Company: "Globex", Products: "Nuclear equipment" }]);

  await signIn(page, `/bases/${base.baseId}`);
  const products = await cellAt(page, 1, "Products");
  await expect(products).toContainText("Heat pumps", { timeout: 30_000 });
  await expect(products).toHaveClass(/bg-amber-50/);
  await expect(products).toContainText("low confidence");

  await products.click();
  const popover = page.getByTestId("cell-popover");
  await expect(popover).toBeVisible();
  await expect(popover).toContainText("42%");
  await expect(popover).toContainText("below review threshold");
  const link = popover.getByRole("link", { name: /The Quiet Rise of Heat Pumps/ });
  await expect(link).toHaveAttribute("href", /^http:\/\/127\.0\.0\.1:\d+\/article$/);
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(popover).toContainText("three to four times more efficient");
  await expect(popover).toContainText("heat pumps in new homes");
  await page.screenshot({ path: `${ARTIFACTS}/popover.png` });

  // Keyboard: Esc closes it; Space on the focused cell opens it again with focus inside.
  await page.keyboard.press("Escape");
  await expect(popover).toBeHidden();
  await page.keyboard.press(" ");
  await expect(popover).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(popover).toBeHidden();
  await expect(page.getByRole("grid")).toBeFocused();

  // Lowering the threshold under 42% removes the tint; the setting is saved on the base.
  await (await cellAt(page, 2, "Company")).click();
  await expect(products).toHaveClass(/bg-amber-50/);
  const saved = page.waitForResponse(
    (r) => r.request().method() === "PATCH" && r.url().endsWith(`/api/v1/bases/${base.baseId}`),
  );
  await page.getByLabel("Low confidence below").fill("40");
  await page.getByLabel("Low confidence below").press("Enter");
  expect((await saved).status()).toBe(200);
  await expect(products).not.toHaveClass(/bg-amber-50/);
  const summary = await api.call("GET", `/api/v1/bases/${base.baseId}`);
  expect(summary.settings.lowConfidenceThreshold).toBe(0.4);
});
