"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, basePath, errorMessage } from "../data/api";
import { applyChunk, itemsFromHistory, type ChatItem, type ChatMessage } from "./chat-model";
import { readUiStream } from "./ui-stream";

interface Options {
  /** The base to modify; null starts a new base with the first message. */
  baseId: string | null;
  /** A column changed (a tool result arrived). */
  onChange?: () => void;
  /** The turn finished; for a new base this is where to go. */
  onDone?: (baseId: string) => void;
}

const FRIENDLY: Record<string, string> = {
  ai_not_configured: "The assistant is not available: no AI provider is configured on the server.",
  insufficient_credits: "Not enough credits for the assistant.",
  rate_limited: "The AI provider is busy; try again in a moment.",
};

/**
 * Drives ai-configure-base with streaming. The whole conversation is sent with each message (the
 * model sees only what the request carries), and the stored history is reloaded from the server.
 */
export function useChat({ baseId, onChange, onDone }: Options) {
  const [history, setHistory] = useState<ChatMessage[]>([]);
  const [items, setItems] = useState<ChatItem[]>([]);
  const [loading, setLoading] = useState(Boolean(baseId));
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const handlers = useRef({ onChange, onDone });
  handlers.current = { onChange, onDone };

  const reload = useCallback(async () => {
    if (!baseId) return;
    try {
      const chat = await api<{ messages: ChatMessage[] }>(`${basePath(baseId)}/chat`);
      setHistory(chat.messages);
      setItems(itemsFromHistory(chat.messages));
    } catch (e) {
      setItems((x) => [
        ...x,
        { kind: "error", id: `load${x.length}`, message: `Could not load the conversation: ${errorMessage(e)}` },
      ]);
    } finally {
      setLoading(false);
    }
  }, [baseId]);

  useEffect(() => {
    void reload();
    return () => abort.current?.abort();
  }, [reload]);

  const send = useCallback(
    async (text: string, baseName?: string) => {
      const message: ChatMessage = { role: "user", content: text };
      setItems((x) => [...x, { kind: "user", id: `u${Date.now()}`, text }]);
      setBusy(true);
      const controller = (abort.current = new AbortController());
      let target = baseId;
      let result: ChatMessage[] | null = null;
      try {
        const res = await fetch("/api/v1/bases/ai-configure-base", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify({
            ...(baseId ? { baseId } : {}),
            ...(baseName ? { baseName } : {}),
            messages: [...history, message],
          }),
          signal: controller.signal,
          credentials: "same-origin",
        });
        if (!res.ok || !res.body) {
          const err = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null)
            ?.error;
          if (res.status === 401)
            window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname)}`);
          const friendly = err?.code ? FRIENDLY[err.code] : undefined;
          setItems((x) => [
            ...x,
            {
              kind: "error",
              id: `e${x.length}`,
              code: err?.code,
              message: [friendly, err?.message].filter(Boolean).join(" ") || `The request failed (${res.status}).`,
            },
          ]);
          return;
        }
        for await (const chunk of readUiStream(res.body, controller.signal)) {
          if (chunk.type === "data-base") target = (chunk.data as { baseId: string }).baseId;
          if (chunk.type === "data-result") result = (chunk.data as { messages: ChatMessage[] }).messages;
          if (chunk.type === "tool-output-available") handlers.current.onChange?.();
          setItems((x) => applyChunk(x, chunk));
        }
      } catch (e) {
        if (!controller.signal.aborted)
          setItems((x) => [...x, { kind: "error", id: `e${x.length}`, message: errorMessage(e) }]);
      } finally {
        setBusy(false);
      }
      if (result) setHistory(result);
      // A failed turn may still have changed columns: the stored history says what stands.
      else if (baseId) void reload();
      if (target && result) handlers.current.onDone?.(target);
    },
    [baseId, history, reload],
  );

  const stop = useCallback(() => abort.current?.abort(), []);

  return { items, loading, busy, send, stop };
}
