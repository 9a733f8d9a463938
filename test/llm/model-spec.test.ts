import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { AppError } from "../../lib/errors.ts";
import { classifyError, DEFAULT_MODEL_SPEC, parseModelSpec, resolveLanguageModel } from "../../lib/engine/llm/index.ts";
import { aiConfigProblem } from "../../lib/engine/llm/model-target.ts";
import { startFakeLlm } from "../support/fake-llm.ts";
import { caught, useFakeLlm } from "./helpers.ts";

describe("parseModelSpec", () => {
  it.each([
    ["openai:gpt-4.1-mini", "openai", "gpt-4.1-mini"],
    ["anthropic:claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5"],
    // Ollama ids contain colons: only the first one separates the provider.
    ["openai:llama3.1:8b", "openai", "llama3.1:8b"],
    ["  OpenAI:qwen2.5  ", "openai", "qwen2.5"],
  ])("parses %j", (spec, provider, modelId) => {
    expect(parseModelSpec(spec)).toEqual({ provider, modelId });
  });

  it.each([
    ["gpt-4.1-mini", "openai"],
    ["o3-mini", "openai"],
    ["o4-mini", "openai"],
    ["claude-sonnet-4-5", "anthropic"],
  ])("infers the provider of the bare id %j from its family", (spec, provider) => {
    expect(parseModelSpec(spec)).toEqual({ provider, modelId: spec });
  });

  it("infers the provider of an unknown bare id from the single configured provider", () => {
    expect(parseModelSpec("llama3.1", ["openai"])).toEqual({ provider: "openai", modelId: "llama3.1" });
    expect(() => parseModelSpec("llama3.1", ["openai", "anthropic"])).toThrow(
      expect.objectContaining({ code: "unknown_model" }),
    );
  });

  it.each(["google:gemini-2.5", "llama3.1", ":gpt-4o", "openai:", "", "openai:   "])(
    "rejects %j as unknown_model",
    (spec) => {
      let error: unknown;
      try {
        parseModelSpec(spec);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("unknown_model");
    },
  );
});

describe("resolveLanguageModel", () => {
  it("takes AI_MODEL as a bare id, and reports a configuration that cannot work in one line", () => {
    const bare = loadConfig({ OPENAI_API_KEY: "sk", AI_MODEL: "gpt-4.1-mini" });
    expect(resolveLanguageModel(undefined, bare)).toMatchObject({ provider: "openai", modelId: "gpt-4.1-mini" });
    expect(aiConfigProblem(bare)).toBeNull();
    expect(aiConfigProblem(loadConfig({}))).toMatch(/^No AI provider is configured/);
    const wrong = aiConfigProblem(loadConfig({ OPENAI_API_KEY: "sk", AI_MODEL: "claude-sonnet-4-5" }));
    expect(wrong).toMatch(/^AI_MODEL cannot work: .*anthropic/);
    expect(wrong).not.toContain("\n");
  });

  it("uses AI_MODEL, then openai:gpt-5-mini, as the default", () => {
    const withModel = loadConfig({
      OPENAI_API_KEY: "sk",
      AI_MODEL: "anthropic:claude-haiku-4-5",
      ANTHROPIC_API_KEY: "k",
    });
    expect(resolveLanguageModel(undefined, withModel)).toMatchObject({
      provider: "anthropic",
      modelId: "claude-haiku-4-5",
    });
    const bare = loadConfig({ OPENAI_API_KEY: "sk" });
    expect(DEFAULT_MODEL_SPEC).toBe("openai:gpt-5-mini");
    expect(resolveLanguageModel(undefined, bare)).toMatchObject({
      provider: "openai",
      modelId: "gpt-5-mini",
      spec: "openai:gpt-5-mini",
    });
    expect(resolveLanguageModel("openai:gpt-4.1", bare).modelId).toBe("gpt-4.1");
  });

  it("throws ai_not_configured naming the variables to set", () => {
    const none = loadConfig({});
    const openai = (() => {
      try {
        resolveLanguageModel("openai:gpt-4.1-mini", none);
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(openai?.code).toBe("ai_not_configured");
    expect(openai?.message).toMatch(/OPENAI_API_KEY/);
    expect(openai?.message).toMatch(/OPENAI_BASE_URL/);
    expect(() => resolveLanguageModel("anthropic:claude-sonnet-4-5", loadConfig({ OPENAI_API_KEY: "sk" }))).toThrow(
      /ANTHROPIC_API_KEY/,
    );
    expect(() => resolveLanguageModel("mistral:large", none)).toThrow(
      expect.objectContaining({ code: "unknown_model" }),
    );
  });

  describe("against the fake server", () => {
    const t = useFakeLlm();

    it("speaks Chat Completions with a placeholder key when only OPENAI_BASE_URL is set", async () => {
      const model = resolveLanguageModel("openai:gpt-5-mini", t.config);
      const result = await generateText({ model: model.model, prompt: "Name: Ada", maxRetries: 0 });
      expect(result.text).toBe("AI(Name=Ada)");
      const [req] = t.llm.requests;
      expect(req.path).toBe("/chat/completions");
      expect(req.model).toBe("gpt-5-mini");
      expect(req.headers.authorization).toMatch(/^Bearer \S+$/);
    });

    it("sends the configured OpenAI key", async () => {
      const config = loadConfig({ OPENAI_BASE_URL: t.llm.baseUrl, OPENAI_API_KEY: "sk-real" });
      const model = resolveLanguageModel("openai:llama3.1:8b", config);
      await generateText({ model: model.model, prompt: "hi", maxRetries: 0 });
      expect(t.llm.requests[0].headers.authorization).toBe("Bearer sk-real");
      expect(t.llm.requests[0].model).toBe("llama3.1:8b");
    });

    it("reports a wrong key as a non-retryable provider error", async () => {
      const strict = await startFakeLlm({ apiKey: "sk-right" });
      try {
        const model = resolveLanguageModel(
          "openai:gpt-4.1-mini",
          loadConfig({ OPENAI_BASE_URL: strict.baseUrl, OPENAI_API_KEY: "sk-wrong" }),
        );
        const error = await caught(() => generateText({ model: model.model, prompt: "hi", maxRetries: 0 }));
        expect(classifyError(error)).toMatchObject({ code: "ai_provider_error", retryable: false, status: 401 });
      } finally {
        await strict.close();
      }
    });
  });
});
