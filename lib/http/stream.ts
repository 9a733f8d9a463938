/** Streams text chunks with backpressure: the next chunk is produced only when asked for. */
export function streamResponse(
  chunks: AsyncIterator<string | Uint8Array>,
  contentType = "application/json; charset=utf-8",
  headers: Record<string, string> = {},
): Response {
  const encoder = new TextEncoder();
  // A client that goes away cancels while a pull awaits its chunk: the controller is closed by
  // then, and the chunk (or the error the cancel caused) has nowhere to go.
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await chunks.next();
        if (cancelled) return;
        if (done) controller.close();
        else controller.enqueue(typeof value === "string" ? encoder.encode(value) : value);
      } catch (e) {
        if (cancelled) return;
        console.error("[cellwright] stream failed:", e);
        controller.error(e);
      }
    },
    async cancel() {
      cancelled = true;
      await chunks.return?.(undefined);
    },
  });
  return new Response(body, { headers: { "content-type": contentType, ...headers } });
}

/** Whether the client asked for Server-Sent Events (Accept: text/event-stream). */
export const acceptsEventStream = (req: Request) => /\btext\/event-stream\b/i.test(req.headers.get("accept") ?? "");
