import { describe, expect, it } from "vitest";
import { useAppWithFakeLlm } from "../support/llm-app.ts";
import { createBase } from "../support/bases.ts";
import { waitFor } from "../support/wait.ts";
import { addRows } from "../engine/helpers.ts";
import { loadConfig } from "../../lib/config.ts";
import { aiConfigProblem } from "../../lib/engine/llm/model-target.ts";

// One rule for model ids: with one provider configured, a bare id ("fake-model") and
// "provider:model" both work, as AI_MODEL and as a column's columnOptions.model; the model the
// fake LLM is asked for is the id either way. With two providers, a bare id of no known family
// names neither, in both places.

const AI_COLUMN = { name: "Summary", isAiEnabled: true, inputColumns: ["Company"], instructions: "Summarise." };

for (const defaultModel of ["fake-model", "openai:fake-model"]) {
  describe(`AI_MODEL=${defaultModel} with one provider configured`, () => {
    const t = useAppWithFakeLlm((url) => ({ OPENAI_BASE_URL: url, AI_MODEL: defaultModel, AI_RETRY_BASE_MS: "20" }), {
      engine: true,
    });

    it("reports no problem at start", () => {
      expect(aiConfigProblem(t.app.rt.config)).toBeNull();
    });

    it.each([
      ["no model of its own", undefined, "fake-model"],
      ["a bare id", "column-model", "column-model"],
      ["provider:model", "openai:column-model", "column-model"],
      ["a bare id with a colon (Ollama's tags)", "llama3.1:8b", "llama3.1:8b"],
    ])("a column with %s asks the configured provider for its model", async (_, model, asked) => {
      const res = await t.app.api("POST", "/api/v1/bases", {
        body: {
          baseName: `Models ${model}`,
          columns: [
            { name: "Company", isPrimary: true },
            { ...AI_COLUMN, ...(model ? { columnOptions: { model } } : {}) },
          ],
        },
      });
      expect(res.status, res.text).toBe(201);
      await addRows(t.app, res.body.baseId, [{ Company: `Acme ${model}` }]);
      const request = await waitFor(
        () => t.llm.requests.find((r) => r.lastUserText.includes(`Acme ${model}`)),
        "the cell's model call",
        20_000,
      );
      expect(request.model).toBe(asked);
    });

    it("a column's model is changed to a bare id, and evaluated with one, as AI_MODEL takes it", async () => {
      const base = await createBase(t.app, { columns: [{ name: "Company", isPrimary: true }, AI_COLUMN] });
      const patched = await t.app.api("PATCH", `/api/v1/bases/${base.baseId}/columns/${base.col.Summary}`, {
        body: { columnOptions: { model: "other-model" } },
      });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.columnOptions.model).toBe("other-model");
      // The evaluation's models are read before its rows are looked for: with no verified rows here,
      // getting as far as nothing_to_evaluate means the models were taken (else 400 unknown_model).
      for (const body of [{ model: "eval-model" }, { model: "openai:eval-model", judgeModel: "judge-model" }, {}]) {
        const estimate = await t.app.api(
          "POST",
          `/api/v1/bases/${base.baseId}/columns/${base.col.Summary}/evaluate/estimate`,
          { body },
        );
        expect(estimate.body.error?.code, `${JSON.stringify(body)}: ${estimate.text}`).toBe("nothing_to_evaluate");
      }
    });
  });
}

describe("with two providers configured", () => {
  const t = useAppWithFakeLlm((url) => ({
    OPENAI_BASE_URL: url,
    ANTHROPIC_BASE_URL: url,
    AI_MODEL: "openai:fake-model",
  }));

  it("a bare id of no known family is 400 unknown_model for a column, and a problem as AI_MODEL", async () => {
    const res = await t.app.api("POST", "/api/v1/bases", {
      body: {
        baseName: "Two",
        columns: [
          { name: "Company", isPrimary: true },
          { ...AI_COLUMN, columnOptions: { model: "fake-model" } },
        ],
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("unknown_model");
    const config = loadConfig({
      DATA_DIR: "unused",
      OPENAI_BASE_URL: t.llm.baseUrl,
      ANTHROPIC_BASE_URL: t.llm.baseUrl,
      AI_MODEL: "fake-model",
    });
    expect(aiConfigProblem(config)).toMatch(/does not say its provider/);
  });

  it("provider:model and known families still work in both", async () => {
    for (const model of ["anthropic:fake-model", "openai:fake-model", "claude-x", "gpt-x"]) {
      const res = await t.app.api("POST", "/api/v1/bases", {
        body: {
          baseName: `Two ${model}`,
          columns: [
            { name: "Company", isPrimary: true },
            { ...AI_COLUMN, columnOptions: { model } },
          ],
        },
      });
      expect(res.status, `${model}: ${res.text}`).toBe(201);
      const config = loadConfig({
        DATA_DIR: "unused",
        OPENAI_BASE_URL: t.llm.baseUrl,
        ANTHROPIC_BASE_URL: t.llm.baseUrl,
        AI_MODEL: model,
      });
      expect(aiConfigProblem(config), model).toBeNull();
    }
  });
});
