import { createUIMessageStreamResponse, type UIMessageChunk } from "ai";

// Apart from stream.ts: the routes that stream rows and exports must not load the AI SDK.

/** The AI SDK's UI message stream as Server-Sent Events. */
export function uiMessageStreamResponse(
  stream: ReadableStream<UIMessageChunk>,
  headers?: Record<string, string>,
): Response {
  return createUIMessageStreamResponse({ stream, headers });
}
