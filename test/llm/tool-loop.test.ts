import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AppError } from "../../lib/errors.ts";
import { generateCellAnswer } from "../../lib/engine/llm/index.ts";
import { caught, cellRequest, openaiModel, useFakeLlm } from "./helpers.ts";

/** A test-only tool that records its inputs. */
function lookupTool() {
  const seen: string[] = [];
  const lookup = tool({
    description: "Looks a company up.",
    inputSchema: z.object({ company: z.string() }),
    execute: async ({ company }) => {
      seen.push(company);
      return { founded: 1947, company };
    },
  });
  return { seen, tools: { lookup } };
}

describe("tool calling in json_schema mode", () => {
  const t = useFakeLlm();

  it("runs the tools the model calls and feeds the results back", async () => {
    const { seen, tools } = lookupTool();
    t.llm.enqueue(
      { toolCalls: [{ name: "lookup", args: { company: "Acme" } }], usage: { inputTokens: 10, outputTokens: 3 } },
      { json: { value: "1947", sources: [], confidenceScore: 1 }, usage: { inputTokens: 20, outputTokens: 5 } },
    );
    const result = await generateCellAnswer(cellRequest(openaiModel(t.config), { tools }));
    expect(seen).toEqual(["Acme"]);
    expect(result.toolCalls).toBe(1);
    expect(result.structuredMode).toBe("json_schema");
    expect(t.llm.requests).toHaveLength(2);
    expect(t.llm.requests[0].tools.map((x) => x.name)).toEqual(["lookup"]);
    const toolMessage = t.llm.requests[1].messages.find((m) => m.role === "tool");
    expect(toolMessage?.content).toContain("1947");
    expect(result.object.value).toBe("1947");
    // Usage adds up over both steps.
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 8 });
  });

  it("caps the loop at maxSteps and makes the last step answer without tools", async () => {
    const { seen, tools } = lookupTool();
    // A model that would call tools forever, unless tools are switched off.
    t.llm.setHandler((req) =>
      req.toolChoice === "none" ? undefined : { toolCalls: [{ name: "lookup", args: { company: `c${req.index}` } }] },
    );
    const result = await generateCellAnswer(cellRequest(openaiModel(t.config), { tools, maxSteps: 3 }));
    expect(t.llm.requests).toHaveLength(3);
    expect(t.llm.requests.map((r) => r.toolChoice)).toEqual(["auto", "auto", "none"]);
    expect(seen).toEqual(["c0", "c1"]);
    expect(result.toolCalls).toBe(2);
    expect(result.object.value).toMatch(/^AI\(/);
  });

  it("reports invalid_output when the model ignores the cap and keeps calling tools", async () => {
    const { tools } = lookupTool();
    t.llm.setHandler(() => ({ toolCalls: [{ name: "lookup", args: { company: "again" } }] }));
    const error = (await caught(() =>
      generateCellAnswer(cellRequest(openaiModel(t.config), { tools, maxSteps: 2 })),
    )) as AppError;
    expect(error.code).toBe("invalid_output");
    expect(t.llm.requests).toHaveLength(2);
  });
});

describe("tool calling in tool mode (no json_schema support)", () => {
  const t = useFakeLlm({ capabilities: { jsonSchema: false } });

  it("loops over the column's tools, then forces the final answer tool on the last step", async () => {
    const { seen, tools } = lookupTool();
    t.llm.setHandler((req) =>
      typeof req.toolChoice === "object"
        ? undefined
        : { toolCalls: [{ name: "lookup", args: { company: `c${req.index}` } }] },
    );
    const result = await generateCellAnswer(cellRequest(openaiModel(t.config), { tools, maxSteps: 3 }));
    expect(result.structuredMode).toBe("tool");
    // Request 0 was the refused json_schema probe.
    expect(t.llm.requests.map((r) => r.status)).toEqual([400, 200, 200, 200]);
    expect(t.llm.requests.slice(1).map((r) => r.toolChoice)).toEqual([
      "required",
      "required",
      { name: "final_answer" },
    ]);
    expect(t.llm.requests[3].tools.map((x) => x.name)).toEqual(["final_answer"]);
    expect(seen).toEqual(["c1", "c2"]);
    expect(result.toolCalls).toBe(2);
    expect(result.object.value).toBe("AI(Company=Acme; Website=acme.example)");
  });
});
