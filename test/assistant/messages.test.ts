import { describe, expect, it } from "vitest";
import { fromResponseMessages, parseMessages, toModelMessages } from "../../lib/assistant/messages.ts";
import { overlap } from "../../lib/assistant/history.ts";
import type { AppError } from "../../lib/errors.ts";

const call = {
  type: "tool-call" as const,
  toolCallId: "c1",
  toolName: "manageColumn",
  args: { columnOperation: "create", name: "A" },
};
const result = { type: "tool-result" as const, toolCallId: "c1", toolName: "manageColumn", result: { message: "ok" } };
const user = (content: string) => ({ role: "user" as const, content });

function code(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return "ok";
}

describe("parseMessages", () => {
  it("accepts a history with tool calls answered in one or more tool messages", () => {
    const second = { ...call, toolCallId: "c2" };
    const messages = [
      user("a"),
      { role: "assistant", content: [{ type: "text", text: "On it." }, call, second] },
      { role: "tool", content: [result] },
      { role: "tool", content: [{ ...result, toolCallId: "c2" }] },
      { role: "assistant", content: "Done." },
      user("b"),
    ];
    expect(parseMessages(messages)).toEqual(messages);
  });

  it("rejects a tool-call id used twice, and a result answered twice", () => {
    const twice = [
      user("a"),
      { role: "assistant", content: [call] },
      { role: "tool", content: [result] },
      { role: "assistant", content: [call] },
      { role: "tool", content: [result] },
      user("b"),
    ];
    expect(code(() => parseMessages(twice))).toBe("invalid_messages");
    const answeredTwice = [
      user("a"),
      { role: "assistant", content: [call] },
      { role: "tool", content: [result, result] },
      user("b"),
    ];
    expect(code(() => parseMessages(answeredTwice))).toBe("invalid_messages");
  });

  it("names the offending message", () => {
    try {
      parseMessages([user("a"), { role: "robot", content: "x" }]);
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).message).toMatch(/messages\.1/);
    }
  });
});

describe("conversion", () => {
  it("maps spec parts to model messages and back", () => {
    const spec = parseMessages([
      user("a"),
      { role: "assistant", content: [call] },
      { role: "tool", content: [result] },
      user("b"),
    ]);
    const model = toModelMessages(spec);
    expect(model[1]).toEqual({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "manageColumn", input: call.args }],
    });
    expect(model[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "manageColumn",
          output: { type: "json", value: { message: "ok" } },
        },
      ],
    });
    expect(fromResponseMessages(model.slice(1, 3) as never)).toEqual(spec.slice(1, 3));
  });

  it("takes a tool message whose content is text (spec §4.6): it answers the open calls", () => {
    const second = { ...call, toolCallId: "c2" };
    const spec = parseMessages([
      user("a"),
      { role: "assistant", content: [call, second] },
      { role: "tool", content: "Both columns exist." },
      user("b"),
    ]);
    const model = toModelMessages(spec);
    expect(model[2]).toEqual({
      role: "tool",
      content: ["c1", "c2"].map((id) => ({
        type: "tool-result",
        toolCallId: id,
        toolName: "manageColumn",
        output: { type: "text", value: "Both columns exist." },
      })),
    });
    // With no call open, the text still reaches the model, as context.
    const alone = toModelMessages(
      parseMessages([user("a"), { role: "tool", content: "Imported 40 rows." }, user("b")]),
    );
    expect(alone[1]).toEqual({ role: "user", content: "Tool output:\nImported 40 rows." });
  });

  it("turns SDK tool errors into our error shape and drops reasoning and empty messages", () => {
    const out = fromResponseMessages([
      { role: "assistant", content: [{ type: "reasoning", text: "hmm" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "x",
            toolName: "nope",
            output: { type: "error-text", value: "No such tool." },
          },
        ],
      },
    ]);
    expect(out).toEqual([
      { role: "assistant", content: "a\nb" },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "x",
            toolName: "nope",
            result: {
              message: "The tool call failed: No such tool.",
              error: { code: "validation_failed", message: "No such tool." },
            },
          },
        ],
      },
    ]);
  });
});

describe("overlap between the stored conversation and a request", () => {
  const a = user("a");
  const b = { role: "assistant" as const, content: "b" };
  const c = user("c");
  it.each([
    [[], [a], 0],
    [[a, b], [a, b, c], 2],
    [[a, b], [c], 0],
    [[a, b, c], [c], 1],
    [[a, b], [b, c], 1],
    [[a, b], [{ content: "a", role: "user" as const }, b, c], 2],
  ])("%j vs %j → %i", (stored, request, expected) => {
    expect(overlap(stored as never, request as never)).toBe(expected);
  });
});
