import { describe, expect, it } from "vitest";
import {
  CONFIGURE,
  calls,
  createLeadsBase,
  DESCRIPTION,
  structure,
  toolResults,
  useAssistantApp,
  user,
} from "./helpers.ts";

// AI Configure Base (§4.6) over real HTTP, with a fake LLM whose tool calls are scripted.
const t = useAssistantApp();

describe("creating a base from a structured description", () => {
  it("builds the described columns: primary, inputs, types and tools", async () => {
    const { baseId, messages } = await createLeadsBase(t);
    expect(baseId).toMatch(/^[A-Za-z0-9]{8}$/);
    // The audit log names the base the assistant made.
    const audited = await t.app.rt.db.prisma.auditEntry.findMany({ where: { action: "base.configure" } });
    expect(audited).toMatchObject([{ targetType: "base", targetId: baseId, baseId, summary: { created: true } }]);

    const s = await structure(t.app, baseId);
    expect(s.sheet.name).toBe("Leads");
    const [company, website, summary] = s.sheetColumns;
    // The placeholder primary column of a new base was taken over by Company, not kept beside it.
    expect(s.sheetColumns.map((c) => c.name)).toEqual(["Company", "Website", "Summary"]);
    expect(s.primaryColumn.name).toBe("Company");
    expect(company).toMatchObject({
      type: "short-text",
      isPrimary: true,
      isAiEnabled: false,
      inputColumnIds: [],
      tools: [],
    });
    expect(website).toMatchObject({
      type: "url",
      isAiEnabled: true,
      inputColumnIds: [company.id],
      tools: [{ name: "web-search" }],
    });
    expect(summary).toMatchObject({
      type: "long-text",
      isAiEnabled: true,
      inputColumnIds: [website.id],
      tools: [{ name: "scrape-url" }],
    });

    // The history: the request, then the assistant's tool calls, their results, and its summary.
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[0]).toEqual(user(DESCRIPTION));
    const callParts = messages[1].content;
    expect(callParts.map((p: any) => [p.type, p.toolName, p.args.columnOperation])).toEqual([
      ["tool-call", "manageColumn", "create"],
      ["tool-call", "manageColumn", "create"],
      ["tool-call", "manageColumn", "create"],
    ]);
    const results = toolResults(messages);
    expect(results.map((r) => r.toolCallId)).toEqual(callParts.map((p: any) => p.toolCallId));
    expect(results[1].result).toMatchObject({ message: expect.any(String), column: website });
    expect(results[2].result.column).toEqual(summary);
    expect(messages[3]).toEqual({ role: "assistant", content: "Created Company (primary), Website and Summary." });

    // The model saw the three tools, the fidelity rules and the description.
    const first = t.llm.requests[0];
    expect(first.tools.map((x) => x.name).sort()).toEqual(["getBaseStructure", "manageColumn", "renameBase"]);
    expect(first.system).toMatch(/Follow the user's description exactly/);
    expect(first.model).toBe("assistant-model");
    expect(first.lastUserText).toBe(DESCRIPTION);
  });

  it("lets a primary column created after others still replace the new base's placeholder", async () => {
    t.llm.enqueue(
      calls(
        { args: { columnOperation: "create", name: "Notes", type: "long-text", isPrimary: false } },
        { args: { columnOperation: "create", name: "Company", isPrimary: true } },
      ),
      { text: "Done." },
    );
    const res = await t.app.api("POST", CONFIGURE, { body: { messages: [user("Companies with notes.")] } });
    expect(toolResults(res.body.messages).map((r) => r.result.error)).toEqual([undefined, undefined]);
    const s = await structure(t.app, res.body.baseId);
    expect(s.sheetColumns.map((c) => [c.name, c.isPrimary])).toEqual([
      ["Company", true],
      ["Notes", false],
    ]);
  });

  it('names a base without baseName "Untitled base"', async () => {
    t.llm.enqueue({ text: "What should the table hold?" });
    const res = await t.app.api("POST", CONFIGURE, { body: { messages: [user("Hi")] } });
    expect(res.status).toBe(200);
    expect((await structure(t.app, res.body.baseId)).sheet.name).toBe("Untitled base");
    expect(res.body.messages).toEqual([user("Hi"), { role: "assistant", content: "What should the table hold?" }]);
  });
});

describe("modifying an existing base", () => {
  it("updates a column's instructions and leaves the rest alone", async () => {
    const { baseId } = await createLeadsBase(t);
    const before = await structure(t.app, baseId);
    t.llm.enqueue(
      calls({ args: { columnOperation: "update", columnName: "summary", instructions: "One sentence, plain words." } }),
      { text: "Done." },
    );
    const res = await t.app.api("POST", CONFIGURE, {
      body: { baseId, messages: [user("Make Summary one sentence.")] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.baseId).toBe(baseId);
    const after = await structure(t.app, baseId);
    const summary = after.sheetColumns.find((c) => c.name === "Summary")!;
    expect(summary.instructions).toBe("One sentence, plain words.");
    expect(summary).toMatchObject({
      inputColumnIds: before.sheetColumns[2].inputColumnIds,
      tools: [{ name: "scrape-url" }],
    });
    expect(toolResults(res.body.messages)[0].result.column).toEqual(summary);
    // The model was told the base's current columns.
    const request = t.llm.requests.at(-2)!;
    expect(request.system).toContain("You are changing the existing base");
    expect(request.system).toMatch(
      /"Summary" \(id scol_\w+\) type long-text; AI-enabled; inputs: "Website"; tools: scrape-url/,
    );
  });

  it("sets a run condition by column names, stored with ids and shown to the model with names", async () => {
    const { baseId } = await createLeadsBase(t);
    const runIf = { column: "website", op: "isNotEmpty" };
    t.llm.enqueue(calls({ args: { columnOperation: "update", columnName: "Summary", runIf } }), { text: "Done." });
    const res = await t.app.api("POST", CONFIGURE, {
      body: { baseId, messages: [user("Only summarise rows with a website.")] },
    });
    expect(res.status, res.text).toBe(200);
    const after = await structure(t.app, baseId);
    const website = after.sheetColumns.find((c) => c.name === "Website")!;
    const summary = after.sheetColumns.find((c) => c.name === "Summary")!;
    expect(summary.runIf).toEqual({ column: website.id, op: "isNotEmpty" });
    // The next turn's model is told the condition.
    t.llm.enqueue({ text: "It runs only where Website is set." });
    await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("What does Summary run on?")] } });
    expect(t.llm.requests.at(-1)!.system).toMatch(/"Summary" .*; runIf: \{[^}]*"column":"Website"/);
  });

  it("answers a cycle with an error result, and the model corrects itself in the same turn", async () => {
    const { baseId } = await createLeadsBase(t);
    t.llm.setHandler((req) => {
      const lastTool = [...req.messages].reverse().find((m) => m.role === "tool");
      if (!lastTool)
        return calls({ args: { columnOperation: "update", columnName: "Company", inputColumns: ["Summary"] } });
      if (lastTool.content.includes("dependency_cycle")) {
        return calls({
          args: { columnOperation: "update", columnName: "Summary", inputColumns: ["Company", "Website"] },
        });
      }
      return { text: "Summary now reads Company and Website; Company cannot read Summary (that is a cycle)." };
    });
    const res = await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("Let Company use Summary.")] } });
    expect(res.status, res.text).toBe(200);
    const [failed, fixed] = toolResults(res.body.messages);
    expect(failed.result).toEqual({
      message: expect.stringMatching(/cycle/),
      error: { code: "dependency_cycle", message: expect.stringMatching(/Company/) },
    });
    expect(failed.result.column).toBeUndefined();
    expect(fixed.result.column.name).toBe("Summary");
    expect(res.body.messages.map((m: any) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    const s = await structure(t.app, baseId);
    expect(s.sheetColumns[0].inputColumnIds).toEqual([]);
    expect(s.sheetColumns[2].inputColumnIds).toEqual([s.sheetColumns[0].id, s.sheetColumns[1].id]);
  });

  it("reports an unknown type, a second primary and a duplicate name as error results", async () => {
    const { baseId } = await createLeadsBase(t);
    t.llm.enqueue(
      calls(
        { args: { columnOperation: "create", name: "Mood", type: "emotion" } },
        { args: { columnOperation: "create", name: "Owner", isPrimary: true } },
        { args: { columnOperation: "create", name: "website" } },
        { args: { columnOperation: "delete", columnName: "Nope" } },
        { args: { columnOperation: "frobnicate" } },
      ),
      { text: "Some changes failed." },
    );
    const res = await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("Add columns.")] } });
    expect(res.status).toBe(200);
    expect(toolResults(res.body.messages).map((r) => r.result.error?.code)).toEqual([
      "unknown_column_type",
      "primary_column_conflict",
      "duplicate_column_name",
      "column_not_found",
      "validation_failed",
    ]);
    expect((await structure(t.app, baseId)).sheetColumns).toHaveLength(3);
  });

  it("deletes, moves and renames through the same tools, and reads the structure", async () => {
    const { baseId } = await createLeadsBase(t);
    t.llm.enqueue(
      calls({ name: "getBaseStructure", args: {} }),
      calls(
        { args: { columnOperation: "delete", columnName: "Website" } },
        { args: { columnOperation: "delete", columnName: "Website", force: true } },
        { args: { columnOperation: "move", columnName: "Summary", position: 0 } },
        { name: "renameBase", args: { name: "Leads v2" } },
      ),
      { text: "Done." },
    );
    const res = await t.app.api("POST", CONFIGURE, {
      body: { baseId, messages: [user("Drop Website, Summary first, rename.")] },
    });
    expect(res.status).toBe(200);
    const [read, inUse, deleted, moved, renamed] = toolResults(res.body.messages).map((r) => r.result);
    expect(read.sheetColumns.map((c: any) => c.name)).toEqual(["Company", "Website", "Summary"]);
    expect(inUse.error.code).toBe("column_in_use");
    expect(deleted).toEqual({ message: expect.stringMatching(/Deleted column "Website"/) });
    expect(moved).toEqual({ message: expect.stringMatching(/position 0/) });
    expect(renamed.base.name).toBe("Leads v2");
    const s = await structure(t.app, baseId);
    expect(s.sheet.name).toBe("Leads v2");
    expect(s.sheetColumns.map((c) => [c.name, c.inputColumnIds])).toEqual([
      ["Summary", []],
      ["Company", []],
    ]);
  });

  it("caps the model at 20 steps, the last one answering in text", async () => {
    const { baseId } = await createLeadsBase(t);
    t.llm.reset();
    t.llm.setHandler((req) =>
      req.toolChoice === "none" ? { text: "Stopping here." } : calls({ name: "getBaseStructure", args: {} }),
    );
    const res = await t.app.api("POST", CONFIGURE, { body: { baseId, messages: [user("Loop.")] } });
    expect(res.status).toBe(200);
    expect(t.llm.requests).toHaveLength(20);
    expect(t.llm.requests.at(-1)!.toolChoice).toBe("none");
    expect(res.body.messages.at(-1)).toEqual({ role: "assistant", content: "Stopping here." });
  });
});

describe("multi-turn conversations", () => {
  it("sends client-held history to the model and stores each message once", async () => {
    const first = await createLeadsBase(t);
    t.llm.reset();
    t.llm.enqueue(
      calls({
        args: {
          columnOperation: "create",
          name: "Employees",
          type: "number",
          isAiEnabled: true,
          inputColumns: ["Company"],
          tools: ["web-search"],
        },
      }),
      {
        text: "Added Employees.",
      },
    );
    const history = [...first.messages, user("Also add an Employees count.")];
    const res = await t.app.api("POST", CONFIGURE, { body: { baseId: first.baseId, messages: history } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.messages.slice(0, history.length)).toEqual(history);
    expect(res.body.messages.slice(history.length).map((m: any) => m.role)).toEqual(["assistant", "tool", "assistant"]);

    // The model saw the earlier turn: its tool calls and their results, then the new request.
    const seen = t.llm.requests[0].messages.filter((m) => m.role !== "system");
    expect(seen.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "tool", "assistant", "user"]);
    expect(seen[1].toolCalls?.map((c) => (c.args as any).name)).toEqual(["Company", "Website", "Summary"]);
    expect(seen[2].content).toContain('"Company"');

    const chat = await t.app.api("GET", `/api/v1/bases/${first.baseId}/chat`);
    expect(chat.status).toBe(200);
    expect(chat.body).toEqual({ baseId: first.baseId, messages: res.body.messages });

    // A client that sends only its new message gets it appended after the stored conversation.
    t.llm.enqueue({ text: "Nothing to change." });
    const third = await t.app.api("POST", CONFIGURE, { body: { baseId: first.baseId, messages: [user("Thanks!")] } });
    expect(third.body.messages).toEqual([user("Thanks!"), { role: "assistant", content: "Nothing to change." }]);
    const all = (await t.app.api("GET", `/api/v1/bases/${first.baseId}/chat`)).body.messages;
    expect(all).toEqual([...res.body.messages, ...third.body.messages]);
  });
});
