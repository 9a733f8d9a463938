import { describe, expect, it } from "vitest";
import { CONFIGURE, calls, structure, toolResults, useAssistantApp, user } from "./helpers.ts";
import { manageColumnArgs } from "../../lib/assistant/column-tool.ts";
import { columnInputSchema } from "../../lib/domain/columns/input.ts";

// manageColumn's arguments come from the one column schema, so the chat cannot store what the
// REST API refuses (instructions of more than 20,000 characters, more inputs than allowed, …).

const t = useAssistantApp();

describe("manageColumn has the column schema's limits", () => {
  it("answers instructions over 20,000 characters with a validation_failed result and creates nothing", async () => {
    t.llm.enqueue(
      calls(
        { args: { columnOperation: "create", name: "Company", isPrimary: true } },
        { args: { columnOperation: "create", name: "Summary", isAiEnabled: true, instructions: "x".repeat(20_001) } },
        { args: { columnOperation: "create", name: "Short", isAiEnabled: true, instructions: "x".repeat(20_000) } },
      ),
      { text: "Done, except Summary." },
    );
    const res = await t.app.api("POST", CONFIGURE, {
      body: { baseName: "Limits", messages: [user("Company, and a summary.")] },
    });
    expect(res.status, res.text).toBe(200);
    const results = toolResults(res.body.messages);
    expect(results.map((r) => r.result.error?.code ?? "ok")).toEqual(["ok", "validation_failed", "ok"]);
    expect(results[1].result.error.message).toMatch(/instructions/);
    const names = (await structure(t.app, res.body.baseId)).sheetColumns.map((c) => c.name);
    expect(names).toEqual(["Company", "Short"]);
  });

  it("derives every shared field's limits from columnInputSchema", () => {
    const long = "x".repeat(20_001);
    expect(columnInputSchema.safeParse({ instructions: long }).success).toBe(false);
    expect(manageColumnArgs.safeParse({ columnOperation: "update", columnName: "A", instructions: long }).success).toBe(
      false,
    );
    expect(manageColumnArgs.safeParse({ columnOperation: "create", name: "x".repeat(101) }).success).toBe(false);
    // The model-friendly extras stay: one value where a list is expected, position for index.
    const ok = manageColumnArgs.parse({
      columnOperation: "create",
      name: "A",
      tools: "web-search",
      inputColumns: "B",
      position: 1,
    });
    expect(ok).toMatchObject({ tools: ["web-search"], inputColumns: ["B"], position: 1 });
  });
});
