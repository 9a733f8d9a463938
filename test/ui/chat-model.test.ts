import { describe, expect, it } from "vitest";
import { applyChunk, itemsFromHistory, type ChatItem } from "../../components/chat/chat-model.ts";
import { readUiStream } from "../../components/chat/ui-stream.ts";

describe("chat model", () => {
  it("turns stored history into bubbles and tool cards with their results", () => {
    const items = itemsFromHistory([
      { role: "user", content: "Add a Website column" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Adding it." },
          {
            type: "tool-call",
            toolCallId: "c1",
            toolName: "manageColumn",
            args: { columnOperation: "create", name: "Website" },
          },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "manageColumn",
            result: { message: 'Created column "Website".', column: { name: "Website" } },
          },
        ],
      },
      { role: "assistant", content: "Done." },
    ]);
    expect(items.map((i) => i.kind)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(items[2]).toMatchObject({ state: "done", outcome: { column: { name: "Website" } } });
  });

  it("applies streamed text deltas and tool chunks, including a failed call", () => {
    let items: ChatItem[] = [{ kind: "user", id: "u", text: "hi" }];
    const chunks = [
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Creat" },
      { type: "text-delta", id: "t", delta: "ing." },
      { type: "tool-input-start", toolCallId: "a", toolName: "manageColumn" },
      {
        type: "tool-input-available",
        toolCallId: "a",
        toolName: "manageColumn",
        input: { columnOperation: "create", name: "X" },
      },
      {
        type: "tool-output-available",
        toolCallId: "a",
        output: { message: "Failed", error: { code: "dependency_cycle", message: "cycle" } },
      },
      { type: "data-error", data: { error: { code: "insufficient_credits", message: "Not enough credits." } } },
    ];
    for (const c of chunks) items = applyChunk(items, c);
    expect(items[1]).toMatchObject({ kind: "assistant", text: "Creating." });
    expect(items[2]).toMatchObject({
      kind: "tool",
      state: "error",
      args: { name: "X" },
      outcome: { error: { code: "dependency_cycle" } },
    });
    expect(items[3]).toMatchObject({ kind: "error", code: "insufficient_credits" });
  });

  it("reads SSE data lines up to [DONE]", async () => {
    const text =
      'data: {"type":"start"}\n\ndata: {"type":"text-delta","id":"1","delta":"a\\nb"}\n\n: comment\n\ndata: [DONE]\n\ndata: {"type":"late"}\n\n';
    const body = new Response(text).body!;
    const got = [];
    for await (const c of readUiStream(body)) got.push(c);
    expect(got).toEqual([{ type: "start" }, { type: "text-delta", id: "1", delta: "a\nb" }]);
  });
});
