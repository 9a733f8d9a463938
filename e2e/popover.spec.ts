import { ARTIFACTS, cellAt, expect, signIn, test } from "./support/fixtures";

// How the popover presents grounded sources (links with their excerpts) and a low confidence.
// The fake LLM does not browse, so the expanded rows are given sources on their way to the
// page; everything else is the real API.

const SOURCES = {
  sources: ["[Acme Corp — About us](https://acme.example/about)", "[Acme on Example News](https://news.example/acme-raises)"],
  excerpts: {
    "https://acme.example/about": "Acme Corp makes anvils, rockets and other fine products for the discerning coyote since 1949.",
    "https://news.example/acme-raises": "Acme raised a Series B to expand its catalogue of road-runner related equipment.",
  },
  confidenceScore: 0.42,
  additionalDetails: "The company website and a news article agree on the product line.",
};

test("the popover shows sources as links with excerpts, and low confidence is tinted", async ({ page, api }) => {
  const base = await api.createBase("Sourced", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Products", type: "short-text", isAiEnabled: true, inputColumns: ["Company"], tools: ["web-search"], instructions: "What does it sell?" },
  ]);
  await api.addRows(base.baseId, [
    { Company: "Acme", Products: "Anvils and rockets" },
    { Company: "Globex", Products: "Nuclear equipment" },
  ]);

  await page.route(/\/api\/v1\/bases\/[^/]+\/rows(\?|\/)/, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    for (const row of body.rows ?? [body]) {
      const cell = row.cells?.Products;
      if (cell && typeof cell === "object" && row.cells.Company?.value === "Acme") {
        cell.status = "done";
        cell.metadata = SOURCES;
      }
    }
    await route.fulfill({ response: res, json: body });
  });

  await signIn(page, `/bases/${base.baseId}`);
  const products = await cellAt(page, 1, "Products");
  await expect(products).toContainText("Anvils");
  await expect(products).toHaveClass(/bg-amber-50/);
  await expect(products).toContainText("low confidence");

  await products.click();
  const popover = page.getByTestId("cell-popover");
  await expect(popover).toBeVisible();
  await expect(popover).toContainText("42%");
  await expect(popover).toContainText("below review threshold");
  const link = popover.getByRole("link", { name: /Acme Corp — About us/ });
  await expect(link).toHaveAttribute("href", "https://acme.example/about");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(popover).toContainText("fine products for the discerning coyote");
  await expect(popover).toContainText("agree on the product line");
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
  const saved = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().endsWith(`/api/v1/bases/${base.baseId}`));
  await page.getByLabel("Low confidence below").fill("40");
  await page.getByLabel("Low confidence below").press("Enter");
  expect((await saved).status()).toBe(200);
  await expect(products).not.toHaveClass(/bg-amber-50/);
  const summary = await api.call("GET", `/api/v1/bases/${base.baseId}`);
  expect(summary.settings.lowConfidenceThreshold).toBe(0.4);
});
