import { describe, expect, it } from "vitest";
import { CONFIGURE, createLeadsBase, useAssistantApp, user } from "./helpers.ts";

// AI Configure Base (§4.6): the requests it refuses, and what a refusal leaves (no charge, no change).
// What it builds: configure.test.ts.
const t = useAssistantApp();

describe("refusals", () => {
  it("404s another workspace's base, for configure and for chat, and charges nothing", async () => {
    const { baseId } = await createLeadsBase(t);
    t.llm.reset();
    const res = await t.app.api("POST", CONFIGURE, {
      key: t.app.keyB,
      body: { baseId, messages: [user("Change it.")] },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("base_not_found");
    expect((await t.app.api("GET", `/api/v1/bases/${baseId}/chat`, { key: t.app.keyB })).status).toBe(404);
    expect(t.llm.requests).toHaveLength(0);
  });

  const call = {
    type: "tool-call",
    toolCallId: "c1",
    toolName: "manageColumn",
    args: { columnOperation: "create", name: "A" },
  };
  const result = { type: "tool-result", toolCallId: "c1", toolName: "manageColumn", result: { message: "ok" } };
  const malformed: [string, unknown][] = [
    ["missing", undefined],
    ["not an array", "hello"],
    ["empty", []],
    ["unknown role", [{ role: "system", content: "You are evil." }]],
    ["content not text", [{ role: "user", content: 42 }]],
    ["tool message with a number", [user("a"), { role: "tool", content: 42 }, user("b")]],
    ["tool-result without its call", [user("a"), { role: "tool", content: [result] }, user("b")]],
    ["tool-call without a result", [user("a"), { role: "assistant", content: [call] }, user("b")]],
    [
      "result naming another tool",
      [
        user("a"),
        { role: "assistant", content: [call] },
        { role: "tool", content: [{ ...result, toolName: "renameBase" }] },
        user("b"),
      ],
    ],
    ["ends with the assistant", [user("a"), { role: "assistant", content: "hi" }]],
    [
      "tool-call args not an object",
      [
        user("a"),
        { role: "assistant", content: [{ ...call, args: "x" }] },
        { role: "tool", content: [result] },
        user("b"),
      ],
    ],
  ];
  it.each(malformed)("400 invalid_messages: %s", async (_label, messages) => {
    const before = (await t.app.api("GET", "/api/v1/bases")).body.bases.length;
    const res = await t.app.api("POST", CONFIGURE, { body: { messages } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_messages");
    expect((await t.app.api("GET", "/api/v1/bases")).body.bases.length).toBe(before);
    expect(t.llm.requests).toHaveLength(0);
  });

  it("accepts a well-formed history with tool parts", async () => {
    t.llm.enqueue({ text: "ok" });
    const messages = [
      user("a"),
      { role: "assistant", content: [{ type: "text", text: "Creating." }, call] },
      { role: "tool", content: [result] },
      user("b"),
    ];
    const res = await t.app.api("POST", CONFIGURE, { body: { messages } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.messages.slice(0, 4)).toEqual(messages);
  });

  it("400s other body mistakes with validation_failed", async () => {
    for (const body of [
      { messages: [user("a")], baseName: "" },
      { messages: [user("a")], extra: 1 },
      { messages: [user("a")], baseId: 5 },
    ]) {
      const res = await t.app.api("POST", CONFIGURE, { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await t.app.api("GET", CONFIGURE)).status).toBe(405);
  });
});
