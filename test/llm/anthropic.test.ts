import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { classifyError, generateCellAnswer, resolveLanguageModel } from "../../lib/engine/llm/index.ts";
import { caught, cellRequest, useFakeLlm } from "./helpers.ts";

const good = { value: "Acme Corp", sources: [], confidenceScore: 0.7 };

describe("Anthropic Messages protocol (ANTHROPIC_BASE_URL at the fake)", () => {
  const t = useFakeLlm();
  const claude = () => resolveLanguageModel("anthropic:claude-sonnet-4-5", t.config);

  it("answers a structured request through /v1/messages with native structured output", async () => {
    t.llm.enqueue({ json: good, usage: { inputTokens: 12, outputTokens: 4 } });
    const result = await generateCellAnswer(cellRequest(claude()));
    expect(result).toMatchObject({
      object: good,
      usage: { inputTokens: 12, outputTokens: 4 },
      structuredMode: "json_schema",
    });
    const [req] = t.llm.requests;
    expect(req.protocol).toBe("anthropic");
    expect(req.path).toBe("/messages");
    expect(req.headers["x-api-key"]).toBe("sk-ant-test");
    expect(req.headers["anthropic-version"]).toBeTruthy();
    expect(req.responseFormat?.type).toBe("json_schema");
    expect(req.system).toBe("You fill one cell of a table.");
  });

  it("works for model ids the SDK does not know (JSON-tool path)", async () => {
    const model = resolveLanguageModel("anthropic:my-gateway-model", t.config);
    const result = await generateCellAnswer(cellRequest(model));
    expect(result.object.value).toBe("AI(Company=Acme; Website=acme.example)");
    expect(t.llm.requests[0].toolChoice).toBe("required");
  });

  it("runs a tool loop with tool_use and tool_result blocks", async () => {
    const seen: string[] = [];
    const tools = {
      lookup: tool({
        description: "Looks a company up.",
        inputSchema: z.object({ company: z.string() }),
        execute: async ({ company }) => (seen.push(company), { employees: 42 }),
      }),
    };
    t.llm.enqueue({ toolCalls: [{ name: "lookup", args: { company: "Acme" } }] });
    const result = await generateCellAnswer(cellRequest(claude(), { tools }));
    expect(seen).toEqual(["Acme"]);
    expect(result.toolCalls).toBe(1);
    const second = t.llm.requests[1];
    expect(second.messages.find((m) => m.role === "assistant")?.toolCalls?.[0]).toMatchObject({
      name: "lookup",
      args: { company: "Acme" },
    });
    expect(second.messages.find((m) => m.role === "tool")?.content).toContain("42");
  });

  it("classifies Anthropic 429 and 529 errors", async () => {
    t.llm.enqueue({ status: 429, retryAfterSeconds: 4 }, { status: 529 });
    const limited = classifyError(await caught(() => generateCellAnswer(cellRequest(claude()))));
    expect(limited).toMatchObject({ code: "rate_limited", retryable: true, retryAfterMs: 4000 });
    const overloaded = classifyError(await caught(() => generateCellAnswer(cellRequest(claude()))));
    expect(overloaded).toMatchObject({ code: "ai_provider_error", retryable: true, status: 529 });
  });
});

describe("Anthropic-compatible server without structured outputs", () => {
  const t = useFakeLlm({ capabilities: { jsonSchema: false } });

  it("falls back to a forced final tool call", async () => {
    const model = resolveLanguageModel("anthropic:claude-sonnet-4-5", t.config);
    const result = await generateCellAnswer(cellRequest(model));
    expect(result.structuredMode).toBe("tool");
    expect(t.llm.requests.map((r) => r.status)).toEqual([400, 200]);
    expect(t.llm.requests[1].toolChoice).toEqual({ name: "final_answer" });
  });
});
