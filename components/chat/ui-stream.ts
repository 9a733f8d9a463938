// Reads the AI SDK's UI message stream (Server-Sent Events whose data lines are JSON chunks,
// ending with [DONE]) from a fetch body, chunk by chunk.

export interface UiChunk {
  type: string;
  [key: string]: unknown;
}

export async function* readUiStream(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<UiChunk> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const chunk = parseEvent(event);
        if (chunk === "done") return;
        if (chunk) yield chunk;
      }
    }
    const last = parseEvent(buffer);
    if (last && last !== "done") yield last;
  } finally {
    reader.releaseLock();
  }
}

function parseEvent(event: string): UiChunk | "done" | null {
  const data = event
    .split(/\r?\n/)
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).replace(/^ /, ""))
    .join("\n");
  if (!data) return null;
  if (data === "[DONE]") return "done";
  try {
    const parsed = JSON.parse(data) as UiChunk;
    return parsed && typeof parsed.type === "string" ? parsed : null;
  } catch {
    return null;
  }
}
