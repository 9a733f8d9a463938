import {
  APICallError,
  generateText,
  InvalidToolInputError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  NoSuchToolError,
  RetryError,
  ToolChoiceViolationError,
} from "ai";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { appError, AppError } from "../../lib/errors.ts";
import {
  classifyError,
  generateCellAnswer,
  parseRetryAfter,
  resolveLanguageModel,
} from "../../lib/engine/llm/index.ts";
import { startFakeLlm } from "../support/fake-llm.ts";
import { caught, cellRequest, openaiModel, useFakeLlm } from "./helpers.ts";

describe("classifying provider failures (real HTTP)", () => {
  const t = useFakeLlm();

  it("429 with Retry-After seconds: rate_limited, retryable, no SDK-internal retry", async () => {
    t.llm.enqueue({ status: 429, retryAfterSeconds: 7 });
    const error = await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config))));
    expect(APICallError.isInstance(error)).toBe(true);
    expect(classifyError(error)).toMatchObject({
      code: "rate_limited",
      retryable: true,
      retryAfterMs: 7000,
      status: 429,
    });
    expect(t.llm.requests).toHaveLength(1);
  });

  it("429 with an HTTP-date Retry-After", async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    t.llm.enqueue({ status: 429, retryAfter: at });
    const c = classifyError(await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config)))));
    expect(c.code).toBe("rate_limited");
    expect(c.retryAfterMs).toBeGreaterThan(25_000);
    expect(c.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it("500 and 503 are retryable provider errors, tried once", async () => {
    t.llm.enqueue({ status: 500 }, { status: 503, retryAfterSeconds: 2 });
    const first = classifyError(await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config)))));
    expect(first).toMatchObject({ code: "ai_provider_error", retryable: true, status: 500 });
    const second = classifyError(await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config)))));
    expect(second).toMatchObject({ code: "ai_provider_error", retryable: true, retryAfterMs: 2000 });
    expect(t.llm.requests).toHaveLength(2);
  });

  it("other 4xx are not retryable (but 408 and 409 are)", async () => {
    t.llm.enqueue(
      { status: 400, message: "context length exceeded" },
      { status: 404 },
      { status: 408 },
      { status: 409 },
    );
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(classifyError(await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config))))));
    expect(results.map((r) => [r.status, r.retryable])).toEqual([
      [400, false],
      [404, false],
      [408, true],
      [409, true],
    ]);
    expect(results[0].message).toContain("context length exceeded");
  });

  it("a hanging server ends in a retryable timeout", async () => {
    t.llm.enqueue({ hang: true });
    const started = Date.now();
    const error = (await caught(() =>
      generateCellAnswer(cellRequest(openaiModel(t.config), { timeoutMs: 300 })),
    )) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("timeout");
    expect(classifyError(error)).toMatchObject({ code: "timeout", retryable: true });
    // The server never answers: any end at all is the 300 ms deadline's, even on a busy machine.
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect.poll(() => t.llm.inFlight).toBe(0);
  });

  it("a caller's abort is not turned into a timeout", async () => {
    t.llm.enqueue({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await caught(() =>
      generateCellAnswer(cellRequest(openaiModel(t.config), { timeoutMs: 5_000, abortSignal: controller.signal })),
    );
    expect(error).not.toBeInstanceOf(AppError);
    expect(classifyError(error)).toMatchObject({ retryable: false });
  });
});

it("an unreachable server is a retryable provider error", async () => {
  const llm = await startFakeLlm();
  const url = llm.baseUrl;
  await llm.close();
  const model = resolveLanguageModel("openai:gpt-4.1-mini", loadConfig({ OPENAI_BASE_URL: url }));
  const error = await caught(() => generateText({ model: model.model, prompt: "hi", maxRetries: 0 }));
  expect(classifyError(error)).toMatchObject({ code: "ai_provider_error", retryable: true });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");
  it.each([
    [{ "retry-after": "3" }, 3000],
    [{ "Retry-After": "1.5" }, 1500],
    [{ "retry-after": "Tue, 01 Jan 2030 00:00:10 GMT" }, 10_000],
    [{ "retry-after": "Mon, 31 Dec 2029 23:59:00 GMT" }, 0],
    [{ "retry-after-ms": "250", "retry-after": "9" }, 250],
    [{ "retry-after": "soon" }, undefined],
    [{}, undefined],
  ])("%j → %s", (headers, expected) => {
    expect(parseRetryAfter(headers, now)).toBe(expected);
  });
});

describe("classifyError on our own errors", () => {
  it("keeps catalog codes and their retry semantics", () => {
    expect(classifyError(appError("invalid_output"))).toMatchObject({ code: "invalid_output", retryable: true });
    expect(classifyError(appError("ai_not_configured"))).toMatchObject({ code: "ai_not_configured", retryable: false });
    expect(classifyError(appError("ai_provider_error", "x", { retryable: false }))).toMatchObject({ retryable: false });
    expect(classifyError(new Error("boom"))).toMatchObject({ code: "internal_error", retryable: false });
    expect(classifyError(new DOMException("late", "TimeoutError"))).toMatchObject({ code: "timeout", retryable: true });
  });
});

describe("classifyError on the AI SDK's own errors, told without loading the SDK", () => {
  it("knows each error the `ai` package defines by its marker", () => {
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 } as never;
    const unusable = [
      new NoObjectGeneratedError({
        text: "{",
        response: { id: "r", timestamp: new Date(), modelId: "m" },
        usage,
        finishReason: "stop",
      }),
      new NoOutputGeneratedError(),
      new NoSuchToolError({ toolName: "nope", availableTools: ["web_search"] }),
      new InvalidToolInputError({ toolName: "web_search", toolInput: "{", cause: new Error("bad") }),
      new ToolChoiceViolationError({
        toolChoice: { type: "required" },
        finishReason: "stop",
        provider: "openai",
        modelId: "m",
        content: [],
      } as never),
    ];
    for (const e of unusable)
      expect(classifyError(e), e.name).toMatchObject({ code: "invalid_output", retryable: true });
    const limited = new APICallError({
      message: "slow down",
      url: "http://x",
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { "retry-after": "2" },
    });
    const retried = new RetryError({
      message: "gave up",
      reason: "maxRetriesExceeded",
      errors: [new Error("first"), limited],
    });
    expect(classifyError(retried)).toMatchObject({ code: "rate_limited", retryable: true, retryAfterMs: 2000 });
    // An error that merely carries the name is not one of them.
    expect(classifyError(Object.assign(new Error("x"), { name: "AI_NoSuchToolError" }))).toMatchObject({
      code: "internal_error",
    });
  });
});
