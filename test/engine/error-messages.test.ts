import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { createBase } from "../support/bases.ts";
import { addRows, settled } from "./helpers.ts";

// A cell's error is a stable code and a message written for users: the raw error a provider or
// our own code produced (paths, connection strings, stack frames) goes to the server log only.

let llm: FakeLlm;
let app: TestApp;

beforeAll(async () => {
  llm = await startFakeLlm();
  app = await createTestApp(
    { OPENAI_BASE_URL: llm.baseUrl, AI_MODEL: "openai:m", AI_RETRY_BASE_MS: "10", AI_MAX_ATTEMPTS: "2" },
    { engine: true },
  );
});
afterAll(async () => {
  await app.close();
  await llm.close();
});

const INTERNALS = "upstream crashed at /srv/internal/worker.py:42 (db=postgres://admin:hunter2@10.0.0.7/prod)";

it("stores a safe message for a provider failure, and keeps the raw one out of the cell", async () => {
  const { baseId } = await createBase(app, {
    columns: [
      { name: "Company", isPrimary: true },
      { name: "Size", type: "number", isAiEnabled: true, inputColumns: ["Company"] },
    ],
  });
  llm.enqueue({ status: 500, message: INTERNALS }, { status: 502, message: INTERNALS });
  await addRows(app, baseId, [{ Company: "Acme" }]);
  const [row] = await settled(app, baseId);
  expect(row.cells.Size.status).toBe("error");
  expect(row.cells.Size.error).toEqual({ code: "ai_provider_error", message: "The AI provider failed (502)." });
  expect(JSON.stringify(row)).not.toContain("hunter2");
  expect(llm.requests).toHaveLength(2);
});
