import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { classifyError, extractJson, generateCellAnswer } from "../../lib/engine/llm/index.ts";
import { caught, cellRequest, openaiModel, useFakeLlm } from "./helpers.ts";

const good = { value: "Acme Corp", sources: ["https://acme.example"], confidenceScore: 0.8 };

describe("structured output via response_format json_schema", () => {
  const t = useFakeLlm();

  it("returns the validated object, usage and mode", async () => {
    t.llm.enqueue({ json: good, usage: { inputTokens: 11, outputTokens: 7 } });
    const result = await generateCellAnswer(cellRequest(openaiModel(t.config)));
    expect(result).toMatchObject({
      object: good,
      usage: { inputTokens: 11, outputTokens: 7 },
      toolCalls: 0,
      structuredMode: "json_schema",
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [req] = t.llm.requests;
    expect(req.responseFormat?.type).toBe("json_schema");
    const schema = req.responseFormat?.type === "json_schema" ? req.responseFormat.schema : {};
    expect(Object.keys((schema as { properties: object }).properties)).toEqual(["value", "sources", "confidenceScore"]);
    expect(req.system).toBe("You fill one cell of a table.");
  });

  it("sends schemas with optional fields non-strict, which OpenAI would refuse in strict mode", async () => {
    const loose = z.object({ value: z.string(), sources: z.array(z.string()).nullish(), note: z.string().optional() });
    const result = await generateCellAnswer({ ...cellRequest(openaiModel(t.config)), schema: loose });
    expect(result.structuredMode).toBe("json_schema");
    expect(result.object.value).toBe("AI(Company=Acme; Website=acme.example)");
    await generateCellAnswer(cellRequest(openaiModel(t.config)));
    expect(
      t.llm.requests.map((r) => [r.status, r.responseFormat?.type === "json_schema" && r.responseFormat.strict]),
    ).toEqual([
      [200, false],
      [200, true],
    ]);
  });

  it("repairs fenced JSON from a server that ignores response_format", async () => {
    t.llm.enqueue({ json: good, fenced: true, usage: { inputTokens: 5, outputTokens: 3 } });
    const result = await generateCellAnswer(cellRequest(openaiModel(t.config)));
    expect(result).toMatchObject({
      object: good,
      usage: { inputTokens: 5, outputTokens: 3 },
      structuredMode: "json_schema",
    });
  });

  it("turns truncated JSON into a retryable invalid_output", async () => {
    t.llm.enqueue({ json: good, malformed: true });
    const error = await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config))));
    expect(error).toBeInstanceOf(AppError);
    expect(classifyError(error)).toMatchObject({ code: "invalid_output", retryable: true });
  });

  it("falls back on a scripted 400 rejection of response_format too", async () => {
    t.llm.enqueue({ rejectResponseFormat: true }, { json: good });
    const result = await generateCellAnswer(cellRequest(openaiModel(t.config)));
    expect(result).toMatchObject({ object: good, structuredMode: "tool" });
    expect(t.llm.requests.map((r) => [r.status, r.responseFormat?.type])).toEqual([
      [400, "json_schema"],
      [200, undefined],
    ]);
  });

  it("does not mistake a rejected schema for a missing feature", async () => {
    t.llm.enqueue({
      status: 400,
      message: "Invalid schema for response_format 'response': 'required' must list every key.",
    });
    const error = await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config))));
    expect(classifyError(error)).toMatchObject({ code: "ai_provider_error", retryable: false, status: 400 });
    expect(t.llm.requests).toHaveLength(1);
  });

  it("turns JSON of the wrong shape into invalid_output with the issues", async () => {
    t.llm.enqueue({ json: { value: 42, sources: "none" } });
    const error = (await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config))))) as AppError;
    expect(error.code).toBe("invalid_output");
    const issues = (error.details as { issues: string[] }).issues;
    expect(issues.some((i) => i.startsWith("value:"))).toBe(true);
    expect(issues.some((i) => i.startsWith("sources:"))).toBe(true);
  });
});

describe("fallback when a server refuses json_schema", () => {
  const t = useFakeLlm({ capabilities: { jsonSchema: false } });

  it("answers through a forced final tool call, and skips the probe next time", async () => {
    const model = openaiModel(t.config);
    const first = await generateCellAnswer(cellRequest(model));
    expect(first.structuredMode).toBe("tool");
    expect(first.object.value).toBe("AI(Company=Acme; Website=acme.example)");
    expect(t.llm.requests.map((r) => r.status)).toEqual([400, 200]);
    expect(t.llm.requests[1].responseFormat).toBeUndefined();
    expect(t.llm.requests[1].toolChoice).toEqual({ name: "final_answer" });

    t.llm.reset();
    const second = await generateCellAnswer(cellRequest(model, { prompt: "Company: Globex" }));
    expect(second.structuredMode).toBe("tool");
    expect(second.object.value).toBe("AI(Company=Globex)");
    expect(t.llm.requests).toHaveLength(1);
    expect(t.llm.requests[0].responseFormat).toBeUndefined();
  });

  it("reports malformed tool arguments as invalid_output", async () => {
    const model = openaiModel(t.config);
    // The capability refusal comes before scripted replies, so this one answers the tool-mode request.
    t.llm.enqueue({ json: good, malformed: true });
    const error = await caught(() => generateCellAnswer(cellRequest(model)));
    expect(classifyError(error)).toMatchObject({ code: "invalid_output", retryable: true });
  });

  it("learns the mode per model: another model id probes again", async () => {
    await generateCellAnswer(cellRequest(openaiModel(t.config, "model-a")));
    await generateCellAnswer(cellRequest(openaiModel(t.config, "model-b")));
    expect(t.llm.requests.map((r) => `${r.model}:${r.status}`)).toEqual([
      "model-a:400",
      "model-a:200",
      "model-b:400",
      "model-b:200",
    ]);
  });
});

describe("fallback to text with the schema in the prompt", () => {
  const t = useFakeLlm({ capabilities: { jsonSchema: false, forcedToolChoice: false } });

  it("parses JSON out of prose and remembers text mode", async () => {
    const model = openaiModel(t.config);
    t.llm.setHandler((req) =>
      req.responseFormat || req.toolChoice
        ? undefined
        : { text: `Sure! Here it is:\n${JSON.stringify(good)}\nAnything else?` },
    );
    const first = await generateCellAnswer(cellRequest(model));
    expect(first).toMatchObject({ object: good, structuredMode: "text" });
    expect(t.llm.requests.map((r) => r.status)).toEqual([400, 400, 200]);
    const textReq = t.llm.requests[2];
    expect(textReq.system).toContain("JSON schema");
    expect(textReq.system).toContain('"confidenceScore"');

    t.llm.reset();
    t.llm.setHandler(undefined);
    const second = await generateCellAnswer(cellRequest(model));
    expect(second.structuredMode).toBe("text");
    expect(second.object.value).toBe("AI(Company=Acme; Website=acme.example)");
    expect(t.llm.requests).toHaveLength(1);
  });

  it("reports prose without JSON as invalid_output", async () => {
    t.llm.setHandler((req) =>
      req.responseFormat || req.toolChoice ? undefined : { text: "I could not find it, sorry." },
    );
    const error = (await caught(() => generateCellAnswer(cellRequest(openaiModel(t.config))))) as AppError;
    expect(error.code).toBe("invalid_output");
    expect(error.details).toMatchObject({ mode: "text", output: "I could not find it, sorry." });
  });
});

describe("extractJson", () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['```json\n{"a":1}\n```', { a: 1 }],
    ["```\n[1,2]\n```", [1, 2]],
    ['Answer: {"a":"}{","b":{"c":[1]}} done', { a: "}{", b: { c: [1] } }],
    ['noise {"broken": } then {"ok":true}', { ok: true }],
  ])("extracts %j", (text, expected) => {
    expect(extractJson(text)).toEqual(expected);
  });

  it("returns undefined when there is no JSON", () => {
    expect(extractJson("no json here")).toBeUndefined();
    expect(extractJson('{"truncated": "val')).toBeUndefined();
  });

  it("validates against any zod schema", async () => {
    const schema = z.object({ n: z.number() });
    expect(schema.safeParse(extractJson('```json\n{"n": 3}\n```')).success).toBe(true);
  });
});
