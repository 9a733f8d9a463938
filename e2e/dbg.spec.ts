// @ts-nocheck
import { test, expect } from "@playwright/test";
import { signIn, cellAt } from "./support/fixtures";
import { writeFileSync } from "node:fs";
test("dbg", async ({ page, request }) => {
  test.setTimeout(120000);
  await signIn(page);
  const res = await request.get("/api/v1/bases", { headers: { "x-api-key": "cw_e2e_0123456789abcdefghijklmnopqrstuvwxyzABCD" } });
  const b = (await res.json()).bases.find((x: any) => x.name === "Hundred thousand");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  await page.goto(`/bases/${b.baseId}`);
  await expect(page.getByText("100,000 rows", { exact: true })).toBeVisible({ timeout: 90_000 });
  const { profile } = await cdp.send("Profiler.stop");
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const dt = profile.timeDeltas; const samples = profile.samples;
  for (let i = 0; i < samples.length; i++) { const n: any = byId.get(samples[i]); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000); }
  console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0)}ms ${k}`).join("\n"));
});
