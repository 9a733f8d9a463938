import { describe, expect, it } from "vitest";
import { dispatch } from "../support/router.ts";
import { waitFor } from "../support/wait.ts";
import { CONFIGURE, calls, sseChunks, structure, useAssistantApp, user } from "./helpers.ts";

// The same endpoint with Accept: text/event-stream answers with the AI SDK's UI message stream,
// and ends in the same stored history as the JSON variant.

const t = useAssistantApp();
const STREAM = { accept: "text/event-stream" };

function script() {
  t.llm.enqueue(
    {
      text: "Setting it up.",
      ...calls(
        { args: { columnOperation: "create", name: "Person", isPrimary: true } },
        {
          args: {
            columnOperation: "create",
            name: "Email",
            type: "email",
            isAiEnabled: true,
            inputColumns: ["Person"],
            tools: ["email-enrichment"],
          },
        },
      ),
    },
    { text: "Created Person and Email." },
  );
}

/** Ids differ between two runs of the same script; everything else must not. */
function normalised(messages: unknown, baseId: string) {
  return JSON.parse(
    JSON.stringify(messages)
      .replaceAll(baseId, "<base>")
      .replace(/scol_\w+/g, "<col>")
      .replace(/call_\w+/g, "<call>"),
  );
}

describe("streaming configure", () => {
  it("streams text and tool activity, with the baseId first, and stores the same history as JSON", async () => {
    script();
    const json = await t.app.api("POST", CONFIGURE, {
      body: { baseName: "People", messages: [user("People with their work email.")] },
    });
    expect(json.status, json.text).toBe(200);

    script();
    const res = await t.app.api("POST", CONFIGURE, {
      headers: STREAM,
      body: { baseName: "People", messages: [user("People with their work email.")] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const baseId = res.headers.get("x-base-id")!;
    expect(baseId).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(baseId).not.toBe(json.body.baseId);

    const chunks = sseChunks(res.text);
    expect(chunks[0]).toMatchObject({ type: "start" });
    expect(chunks[1]).toEqual({ type: "data-base", data: { baseId, created: true } });
    const types = chunks.map((c) => c.type);
    expect(types).toContain("text-delta");
    expect(chunks.filter((c) => c.type === "tool-input-available").map((c) => c.input.name)).toEqual([
      "Person",
      "Email",
    ]);
    const outputs = chunks.filter((c) => c.type === "tool-output-available");
    expect(outputs.map((c) => c.output.column.name)).toEqual(["Person", "Email"]);
    expect(types.at(-2)).toBe("data-result");
    expect(types.at(-1)).toBe("finish");
    // Text deltas add up to the assistant's words.
    expect(
      chunks
        .filter((c) => c.type === "text-delta")
        .map((c) => c.delta)
        .join(""),
    ).toBe("Setting it up.Created Person and Email.");

    const result = chunks.at(-2).data;
    expect(result.baseId).toBe(baseId);
    expect(normalised(result.messages, baseId)).toEqual(normalised(json.body.messages, json.body.baseId));
    const chat = await t.app.api("GET", `/api/v1/bases/${baseId}/chat`);
    expect(chat.body.messages).toEqual(result.messages);
    expect((await structure(t.app, baseId)).sheetColumns.map((c) => c.name)).toEqual(["Person", "Email"]);
    // A streamed answer is audited too, naming the base from its first chunk.
    const audited = await t.app.rt.db.prisma.auditEntry.findMany({ where: { action: "base.configure", baseId } });
    expect(audited).toMatchObject([{ targetId: baseId, summary: { created: true } }]);
  });

  it("refuses before streaming: bad messages are a plain 400", async () => {
    const res = await t.app.api("POST", CONFIGURE, { headers: STREAM, body: { messages: [] } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_messages");
  });

  it("ends with an error chunk and data-error when the provider fails mid-stream, and keeps committed changes", async () => {
    t.llm.enqueue(calls({ args: { columnOperation: "create", name: "Person", isPrimary: true } }), {
      status: 500,
      message: "upstream down",
    });
    const res = await t.app.api("POST", CONFIGURE, { headers: STREAM, body: { messages: [user("People.")] } });
    expect(res.status).toBe(200);
    const chunks = sseChunks(res.text);
    const baseId = chunks[1].data.baseId;
    expect(chunks.some((c) => c.type === "error")).toBe(true);
    const failure = chunks.find((c) => c.type === "data-error");
    expect(failure.data.error).toMatchObject({ code: "ai_provider_error", details: { baseId } });
    expect(chunks.at(-1).type).toBe("finish");
    // The column was committed before the failure, so the base and its history stay.
    expect((await structure(t.app, baseId)).sheetColumns.map((c) => c.name)).toEqual(["Person"]);
    const chat = await t.app.api("GET", `/api/v1/bases/${baseId}/chat`);
    expect(chat.body.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("finishes and stores the turn even when the client stops reading", async () => {
    t.llm.enqueue(calls({ args: { columnOperation: "create", name: "Person", isPrimary: true } }), {
      text: "Created Person.",
      delayMs: 300,
    });
    const res = await dispatch(
      new Request(`http://localhost${CONFIGURE}`, {
        method: "POST",
        headers: { ...STREAM, "content-type": "application/json", "x-api-key": t.app.keyA },
        body: JSON.stringify({ messages: [user("People.")] }),
      }),
    );
    const baseId = res.headers.get("x-base-id")!;
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    const messages = await waitFor(async () => {
      const chat = await t.app.api("GET", `/api/v1/bases/${baseId}/chat`);
      return chat.body.messages.length === 4 ? chat.body.messages : undefined;
    }, "the turn to be stored");
    expect(messages.at(-1)).toEqual({ role: "assistant", content: "Created Person." });
  });
});

describe("GET /api/v1/bases/{baseId}/chat", () => {
  it("is empty for a base nobody has talked about", async () => {
    const created = await t.app.api("POST", "/api/v1/bases", { body: { baseName: "Quiet" } });
    const chat = await t.app.api("GET", `/api/v1/bases/${created.body.baseId}/chat`);
    expect(chat.status).toBe(200);
    expect(chat.body).toEqual({ baseId: created.body.baseId, messages: [] });
    expect((await t.app.api("GET", "/api/v1/bases/nope1234/chat")).status).toBe(404);
  });
});
