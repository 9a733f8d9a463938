import { createUIMessageStream, toUIMessageStream, type UIMessageChunk } from "ai";
import { classifyError } from "../engine/llm/index.ts";
import { parseMessages } from "./messages.ts";
import { runTurn, startTurn, type ConfigureInput, type Turn } from "./turn.ts";
import type { Runtime } from "../runtime.ts";

// POST /api/v1/bases/ai-configure-base (§4.6), answered as JSON or, for Accept:
// text/event-stream, as the AI SDK's UI message stream. Both run the same turn and store the
// same history; the stream adds three data parts around the model's own chunks:
//   data-base   { baseId, created }        first, so a UI can navigate to the base at once
//   data-result { baseId, messages }       last, the same body the JSON variant returns
//   data-error  { error: { code, ... } }   instead of data-result when the turn failed

/** The request as the edge parsed it (lib/http/schemas/assistant.ts); the messages are checked here. */
export interface ConfigureRequest {
  baseName?: string;
  baseId?: string;
  messages?: unknown;
}

/** Bad messages are 400 invalid_messages, with the pairing rules of §4.6. */
export function configureInput({ messages, ...rest }: ConfigureRequest): ConfigureInput {
  return { ...rest, messages: parseMessages(messages) };
}

type Rt = Pick<Runtime, "db" | "bus" | "reactions" | "config">;

export async function configureBase(rt: Rt, workspaceId: string, input: ConfigureInput) {
  const turn = await startTurn(rt, workspaceId, input);
  const outcome = await runTurn(rt, turn).done;
  if (!outcome.ok) throw outcome.error;
  return { baseId: outcome.baseId, messages: outcome.messages };
}

/** The turn as the AI SDK's UI message stream; the edge sends it as Server-Sent Events. */
export async function configureBaseStream(
  rt: Rt,
  workspaceId: string,
  input: ConfigureInput,
): Promise<{ baseId: string; stream: ReadableStream<UIMessageChunk> }> {
  // Everything that can be refused (400, 402, 404, 503) is refused here, before the stream starts.
  const turn: Turn = await startTurn(rt, workspaceId, input);
  const { result, done } = runTurn(rt, turn);
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      writer.write({ type: "start" });
      writer.write({ type: "data-base", data: { baseId: turn.baseId, created: turn.created } });
      const chunks = toUIMessageStream({
        stream: result.stream,
        sendStart: false,
        sendFinish: false,
        onError: errorText,
      });
      const reader = chunks.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) writer.write(next.value);
      const outcome = await done;
      if (outcome.ok)
        writer.write({ type: "data-result", data: { baseId: outcome.baseId, messages: outcome.messages } });
      else writer.write({ type: "data-error", data: { error: outcome.error.toJSON() } });
      writer.write({ type: "finish" });
    },
    onError: errorText,
  });
  return { baseId: turn.baseId, stream };
}

function errorText(e: unknown): string {
  const c = classifyError(e);
  return c.code === "internal_error" ? "Something went wrong on our side." : c.message;
}
