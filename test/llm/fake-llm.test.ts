import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { generateText, isStepCount, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../lib/config.ts";
import { generateCellAnswer, resolveLanguageModel } from "../../lib/engine/llm/index.ts";
import { fenceUntrusted } from "../../lib/tools/fence.ts";
import { startFakeLlm } from "../support/fake-llm.ts";
import { cellRequest, openaiModel, useFakeLlm } from "./helpers.ts";

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("fake LLM streaming", () => {
  const t = useFakeLlm({ streamChunkDelayMs: 1 });

  it("emits valid OpenAI SSE: JSON chunks, usage last when asked, then [DONE]", async () => {
    const messages = [{ role: "user", content: "Tell me about Acme, the company that makes everything." }];
    for (const includeUsage of [true, false]) {
      const res = await post(`${t.llm.baseUrl}/chat/completions`, {
        model: "m",
        stream: true,
        stream_options: { include_usage: includeUsage },
        messages,
      });
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const events = (await res.text()).split("\n\n").filter(Boolean);
      expect(events.length).toBeGreaterThan(1);
      expect(events.every((e) => e.startsWith("data: "))).toBe(true);
      expect(events.at(-1)).toBe("data: [DONE]");
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
      expect(chunks.length).toBeGreaterThan(0);
      expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
      const text = chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");
      expect(text).toBe("AI(Tell me about Acme, the company that makes everything.)");
      expect(chunks.filter((c) => c.usage).length).toBe(includeUsage ? 1 : 0);
      if (includeUsage) expect(chunks.at(-1).choices).toEqual([]);
    }
  });

  it("is consumed by streamText over OpenAI, including a streamed tool call", async () => {
    const model = openaiModel(t.config);
    t.llm.enqueue(
      { toolCalls: [{ name: "lookup", args: { q: "acme" } }] },
      { text: "Acme was founded in 1947.", usage: { inputTokens: 9, outputTokens: 6 } },
    );
    const seen: string[] = [];
    const result = streamText({
      model: model.model,
      prompt: "When was Acme founded?",
      maxRetries: 0,
      stopWhen: isStepCount(3),
      tools: {
        lookup: tool({
          description: "look up",
          inputSchema: z.object({ q: z.string() }),
          execute: async ({ q }) => (seen.push(q), { year: 1947 }),
        }),
      },
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Acme was founded in 1947.");
    expect(seen).toEqual(["acme"]);
    expect((await result.finalStep).usage).toMatchObject({ inputTokens: 9, outputTokens: 6 });
    expect(t.llm.requests.length).toBeGreaterThan(0);
    expect(t.llm.requests.every((r) => r.stream && r.includeUsage)).toBe(true);
  });

  it("is consumed by streamText over Anthropic", async () => {
    const model = resolveLanguageModel("anthropic:claude-sonnet-4-5", t.config);
    t.llm.enqueue({ text: "Streaming from a fake Claude, in several pieces." });
    const result = streamText({ model: model.model, prompt: "hi", maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.join("")).toBe("Streaming from a fake Claude, in several pieces.");
    expect(deltas.length).toBeGreaterThan(1);
    expect(t.llm.requests[0]).toMatchObject({ protocol: "anthropic", stream: true });
  });
});

describe("fake LLM default responder", () => {
  const t = useFakeLlm();

  it("derives values from the input, so a chained column shows what it saw", async () => {
    const model = openaiModel(t.config);
    const a = await generateCellAnswer(cellRequest(model, { prompt: "Company: Acme" }));
    expect(a.object.value).toBe("AI(Company=Acme)");
    const b = await generateCellAnswer(
      cellRequest(model, { prompt: `Instructions: summarise\nCEO: ${a.object.value}` }),
    );
    expect(b.object.value).toBe("AI(Instructions=summarise; CEO=AI(Company=Acme))");
    const json = await generateCellAnswer(cellRequest(model, { prompt: 'Row: {"name": "Ada", "city": "London"}' }));
    expect(json.object.value).toBe("AI(name=Ada; city=London)");
  });

  it("reads row data fenced the way the engine's prompt fences it", async () => {
    const model = openaiModel(t.config);
    const prompt = [
      "Column to fill: CEO (type: text)",
      `The row is about (Company):\n${fenceUntrusted("Company", "Acme")}`,
      `Input values of this row:\n${fenceUntrusted("Summary", "AI(Company=Acme)")}`,
    ].join("\n\n");
    const result = await generateCellAnswer(cellRequest(model, { prompt }));
    expect(result.object.value).toBe("AI(Company=Acme; Summary=AI(Company=Acme))");
  });

  it("takes the column-type hint from the system prompt over hint-like row data", async () => {
    const model = openaiModel(t.config);
    const system = "value: A number only, digits with an optional sign and decimal point, no units or words.";
    const result = await generateCellAnswer(
      cellRequest(model, { system, prompt: "Note: our email address is on the site" }),
    );
    expect(result.object.value).toMatch(/^\d+$/);
  });

  it("answers column-type hints with valid values", async () => {
    const model = openaiModel(t.config);
    const ask = async (hint: string) =>
      (await generateCellAnswer(cellRequest(model, { system: `Value: ${hint}`, prompt: "Company: Acme" }))).object
        .value;
    expect(await ask("A number only, digits with an optional sign and decimal point, no units or words.")).toMatch(
      /^\d+$/,
    );
    expect(await ask('Exactly "true" or "false".')).toMatch(/^(true|false)$/);
    expect(["small", "large"]).toContain(await ask('Exactly one of these options: "small", "large".'));
    expect(await ask("A date as YYYY-MM-DD (or an ISO 8601 date-time when a time matters).")).toMatch(
      /^\d{4}-\d{2}-\d{2}$/,
    );
    expect(await ask("One email address (name@domain) and nothing else.")).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(await ask("One absolute http(s) URL and nothing else.")).toMatch(/^https:\/\//);
  });

  it("follows directives in the prompt, for processes that cannot script replies", async () => {
    const model = openaiModel(t.config);
    const flaky = "Company: Initech [[fake:flaky=1]]";
    await expect(generateText({ model: model.model, prompt: flaky, maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 503,
    });
    expect((await generateText({ model: model.model, prompt: flaky, maxRetries: 0 })).text).toBe("AI(Company=Initech)");
    await expect(
      generateText({ model: model.model, prompt: "x [[fake:status=429]] [[fake:retry-after=3]]", maxRetries: 0 }),
    ).rejects.toMatchObject({
      statusCode: 429,
      responseHeaders: expect.objectContaining({ "retry-after": "3" }),
    });
  });
});

describe("fake LLM bookkeeping", () => {
  it("tracks concurrency, request rate and the model list", async () => {
    const llm = await startFakeLlm({ latencyMs: 300 });
    try {
      const model = resolveLanguageModel("openai:gpt-4.1-mini", loadConfig({ OPENAI_BASE_URL: llm.baseUrl }));
      const calls = Array.from({ length: 5 }, (_, i) =>
        generateText({ model: model.model, prompt: `Row: ${i}`, maxRetries: 0 }),
      );
      await expect.poll(() => llm.inFlight).toBe(5);
      await Promise.all(calls);
      expect(llm.maxInFlight).toBe(5);
      await expect.poll(() => llm.inFlight).toBe(0);
      expect(llm.maxRequestsPerWindow(1000)).toBe(5);
      expect(llm.requests).toHaveLength(5);
      expect(llm.requests.every((r) => r.doneAt! - r.at >= 290)).toBe(true);
      const models = await (await fetch(`${llm.baseUrl}/models`)).json();
      expect(models.data.map((m: { id: string }) => m.id)).toContain("gpt-5-mini");
    } finally {
      await llm.close();
    }
  });

  it("refuses a strict json_schema with optional properties, like OpenAI", async () => {
    const llm = await startFakeLlm();
    try {
      const schema = {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      };
      const body = (strict: boolean) => ({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        response_format: { type: "json_schema", json_schema: { name: "r", strict, schema } },
      });
      const refused = await post(`${llm.baseUrl}/chat/completions`, body(true));
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toMatch(/Invalid schema for response_format 'r'.*Missing 'b'/);
      const accepted = await post(`${llm.baseUrl}/chat/completions`, body(false));
      expect(accepted.status).toBe(200);
      expect(JSON.parse((await accepted.json()).choices[0].message.content)).toMatchObject({
        a: "AI(hi)",
        b: "AI(hi)",
      });
    } finally {
      await llm.close();
    }
  });

  it("answers a configured fraction of requests with 429", async () => {
    const llm = await startFakeLlm({ errorRate429: 0.5, retryAfterSeconds: 2, seed: 7 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await post(`${llm.baseUrl}/chat/completions`, {
          model: "m",
          messages: [{ role: "user", content: "hi" }],
        });
        statuses.push(res.status);
        if (res.status === 429) expect(res.headers.get("retry-after")).toBe("2");
        await res.arrayBuffer();
      }
      const limited = statuses.filter((s) => s === 429).length;
      expect(limited).toBeGreaterThan(8);
      expect(limited).toBeLessThan(32);
    } finally {
      await llm.close();
    }
  });

  it("runs standalone under plain node and prints its base URL", async () => {
    const file = path.resolve(import.meta.dirname, "../support/fake-llm.ts");
    const child = spawn(process.execPath, [file, "--port", "0", "--latency", "5", "--rate429", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
      const { baseUrl, anthropicBaseUrl } = JSON.parse(line);
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(anthropicBaseUrl).toBe(baseUrl);
      const res = await post(`${baseUrl}/chat/completions`, {
        model: "m",
        messages: [{ role: "user", content: "Company: Acme" }],
      });
      expect((await res.json()).choices[0].message.content).toBe("AI(Company=Acme)");
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });
});
