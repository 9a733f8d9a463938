import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { createBase } from "../support/bases.ts";
import { addRows, settled } from "./helpers.ts";

// The balance runs out while model calls are in flight: each call was let through (the balance
// covered one more cell when it started), and the answers are stored together. Exactly the cells
// the balance covers are stored and charged, once each, with their run's spending; the rest end
// in insufficient_credits, uncharged.

let llm: FakeLlm;
let app: TestApp;

beforeAll(async () => {
  llm = await startFakeLlm({ latencyMs: 300 });
  app = await createTestApp(
    { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:test-model", AI_CONCURRENCY: "4" },
    { engine: true, credits: 2 },
  );
});
afterAll(async () => {
  await app?.close();
  await llm?.close();
});

it("stores and charges exactly the answers the balance covers when it runs out mid-flight", async () => {
  const { baseId } = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Employees", type: "number", isAiEnabled: true, inputColumns: ["Company"] },
    ],
  });
  await addRows(app, baseId, [{ Company: "A" }, { Company: "B" }, { Company: "C" }, { Company: "D" }]);
  const rows = await settled(app, baseId);

  expect(llm.totalRequests).toBe(4);
  const cells = rows.map((r) => r.cells.Employees);
  expect(cells.filter((c) => c.status === "done")).toHaveLength(2);
  expect(cells.filter((c) => c.error?.code === "insufficient_credits")).toHaveLength(2);
  const { prisma } = app.rt.db;
  expect(Number((await prisma.workspace.findUniqueOrThrow({ where: { id: app.workspaceA } })).credits)).toBe(0);
  const entries = await prisma.creditEntry.findMany({ where: { workspaceId: app.workspaceA, reason: "cell_run" } });
  const doneRows = rows.filter((r) => r.cells.Employees.status === "done").map((r) => r.id);
  expect(entries.map((e) => [e.rowId, e.amount]).sort()).toEqual(doneRows.map((id) => [id, -1]).sort());
  const [run] = await prisma.run.findMany({ where: { baseId } });
  expect(run.creditsSpent).toBe(2);
});
