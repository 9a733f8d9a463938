import { spawnSync } from "node:child_process";
import path from "node:path";
import { ARTIFACTS, expect, test } from "./support/fixtures";

// A new user's way in: `npm run cli -- sign-in-link` while the server runs prints a one-time link;
// opening it in the browser lands on the bases page signed in, where a key for scripts is made.
// The same link opened again shows the sign-in page with a clear message.

const root = path.resolve(import.meta.dirname, "..");

function printedLink(): string {
  const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const r = spawnSync(process.execPath, [tsx, "lib/cli/index.ts", "sign-in-link"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: process.env.E2E_DATA_DIR!,
      NEXT_TELEMETRY_DISABLED: "1",
    } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const match = /^Sign in: (\S+)$/m.exec(r.stdout);
  expect(match, r.stdout).not.toBeNull();
  return match![1];
}

test("the printed sign-in link opens the bases page, once; the page makes an API key", async ({ page, context }) => {
  const link = printedLink();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sign-in\?token=[A-Za-z0-9_-]{43}$/);

  await page.goto(link);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Bases", level: 1 })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === "cellwright_session")?.httpOnly).toBe(true);

  await page.getByRole("button", { name: "Create an API key" }).click();
  await expect(page.getByLabel(/Your new key/)).toHaveValue(/^cw_[A-Za-z0-9]{32,}$/);
  await page.screenshot({ path: `${ARTIFACTS}/sign-in-link-bases.png` });

  await context.clearCookies();
  await page.goto(link);
  await expect(page).toHaveURL(/\/sign-in\?link=invalid$/);
  await expect(page.getByText("This sign-in link is invalid, has expired or was already used")).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/sign-in-link-used.png` });
});
