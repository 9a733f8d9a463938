import { test as base, expect, type APIRequestContext, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { API_KEY } from "./env";

export { expect };

export const ARTIFACTS = path.resolve(import.meta.dirname, "../artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

/** The REST API as an external client sees it (X-API-Key), to seed data and to act "elsewhere". */
export class Api {
  private readonly request: APIRequestContext;
  constructor(request: APIRequestContext) {
    this.request = request;
  }

  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request.fetch(path, {
      method,
      headers: { "x-api-key": API_KEY, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      data: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok()) throw new Error(`${method} ${path} → ${res.status()}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  createBase(baseName: string, columns?: unknown[]) {
    return this.call<{ baseId: string; sheetColumns: { id: string; name: string }[] }>("POST", "/api/v1/bases", {
      baseName,
      columns,
    });
  }

  addRows(baseId: string, rows: Record<string, string>[]) {
    return this.call<{ rows: { id: string }[] }>("POST", `/api/v1/bases/${baseId}/add-rows`, {
      rows: rows.map((cells) => ({ cells })),
    });
  }

  /** Imports a CSV file through the import job, the fastest way to a large base; resolves once it is done. */
  async importCsv(baseId: string, csv: string, timeoutMs = 120_000) {
    const res = await this.request.fetch(`/api/v1/bases/${baseId}/imports?createColumns=false&runAi=false`, {
      method: "POST",
      headers: {
        "x-api-key": API_KEY,
        "content-type": "text/csv",
        "content-disposition": 'attachment; filename="rows.csv"',
      },
      data: Buffer.from(csv),
    });
    if (res.status() !== 202) throw new Error(`import → ${res.status()}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    const until = Date.now() + timeoutMs;
    for (;;) {
      const imp = await this.call<{ status: string; rowsCreated: number }>(
        "GET",
        `/api/v1/bases/${baseId}/imports/${id}`,
      );
      if (imp.status === "done") return imp;
      if (imp.status === "failed" || Date.now() > until) throw new Error(`import ${id}: ${JSON.stringify(imp)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Signs in through the form, as a user would. */
export async function signIn(page: Page, next = "/") {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel("API key").fill(API_KEY);
  await page.getByRole("button", { name: "Sign in with the key" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
}

/**
 * Fails the test on any console error, uncaught page error or 5xx response. Chromium logs every
 * 4xx response as "Failed to load resource"; those are the API answering (a validation error
 * the UI shows inline), so they are left to the assertions of each test.
 */
export const test = base.extend<{ api: Api; consoleErrors: string[]; allowErrors: RegExp | null }>({
  api: async ({ request }, use) => use(new Api(request)),
  /** Errors a test provokes on purpose: test.use({ allowErrors: /pattern/ }). */
  allowErrors: [null, { option: true }],
  consoleErrors: [
    async ({ page, allowErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (m) => {
        if (
          m.type() === "error" &&
          !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())
        )
          errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("response", (r) => {
        if (r.status() >= 500) errors.push(`${r.status()} ${r.request().method()} ${r.url()}`);
      });
      await use(errors);
      expect(
        errors.filter((e) => !allowErrors?.test(e)),
        "console errors",
      ).toEqual([]);
    },
    { auto: true },
  ],
});

export const grid = (page: Page) => page.getByRole("grid");

/** The grid cell of the row showing `rowNumber` (1-based) in the column named `column`. */
export async function cellAt(page: Page, rowNumber: number, column: string) {
  const colIndex = await grid(page)
    .locator(`[role=columnheader][data-column="${column}"]`)
    .getAttribute("aria-colindex");
  return grid(page).locator(
    `[role=row][aria-rowindex="${rowNumber + 1}"] [role=gridcell][aria-colindex="${colIndex}"]`,
  );
}
