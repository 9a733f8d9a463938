import { expect, it } from "vitest";
import { createBase } from "../support/bases.ts";
import { TARGET_QUERY } from "../support/fake-world.ts";
import { worldModel } from "../support/world-model.ts";
import { stopped, useFindApp } from "./helpers.ts";

// A workspace that runs out of credits mid-find: the find ends saying so, having spent no more
// than the workspace had, and can be extended once topped up.

const t = useFindApp({ credits: 9 });

it("ends with insufficient_credits when the workspace cannot pay, and spends no more than it had", async () => {
  t.llm.setHandler(worldModel());
  const b = await createBase(t.app, { columns: [{ name: "Company", type: "short-text", isPrimary: true }] });
  const res = await t.app.api("POST", `/api/v1/bases/${b.baseId}/finds`, {
    body: { query: TARGET_QUERY, criteria: ["Based in Berlin"], count: 20 },
  });
  expect(res.status, res.text).toBe(202);
  const find = await stopped(t.app, b.baseId, res.body.id);
  expect(find).toMatchObject({ phase: "done", stopReason: "error", error: { code: "insufficient_credits" } });
  expect(find.credits.spent).toBeLessThanOrEqual(9);
  const credits = await t.app.api("GET", "/api/v1/credits");
  expect(credits.body.balance).toBe(9 - find.credits.spent);
  expect(credits.body.balance).toBeGreaterThanOrEqual(0);
});
