import { cellAt, expect, signIn, test } from "./support/fixtures";

// The base page preloads the grid's first requests, so they start with the page and not after its
// scripts have run. A preload the grid's fetch() does not take is a second request for the same
// URL: each must reach the server once.

test("the grid's first requests are preloaded with the page and each fetched once", async ({ page, api }) => {
  const base = await api.createBase("Preloaded", [
    { name: "Company", type: "short-text", isPrimary: true },
    { name: "Note", type: "short-text" },
  ]);
  await api.addRows(base.baseId, [{ Company: "Acme", Note: "first" }]);
  const prefix = `/api/v1/bases/${base.baseId}`;
  const requested: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith(prefix)) requested.push(url.pathname + url.search);
  });

  await signIn(page, `/bases/${base.baseId}`);
  await expect(await cellAt(page, 1, "Note")).toHaveText("first");

  for (const href of [prefix, `${prefix}/base-structure`, `${prefix}/rows?expand=true&limit=300`]) {
    await expect(page.locator(`link[rel=preload][as=fetch][href="${href}"]`)).toHaveCount(1);
  }
  // The base's summary is fetched again whenever rows change; the structure and rows are not.
  for (const href of [`${prefix}/base-structure`, `${prefix}/rows?expand=true&limit=300`]) {
    expect(requested.filter((u) => u === href), href).toHaveLength(1);
  }
});

test("a page with a query in its URL preloads no rows", async ({ page, api }) => {
  const base = await api.createBase("Queried", [{ name: "Company", type: "short-text", isPrimary: true }]);
  await api.addRows(base.baseId, [{ Company: "Acme" }, { Company: "Beta" }]);
  await signIn(page, `/bases/${base.baseId}?q=Beta`);
  await expect(await cellAt(page, 1, "Company")).toHaveText("Beta");
  await expect(page.locator("link[rel=preload][as=fetch]")).toHaveCount(0);
});
