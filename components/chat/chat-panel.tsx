"use client";
import { useEffect, useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { usePermissions } from "../auth/use-permissions";
import { keys } from "../data/queries";
import { Button } from "../ui/button";
import { AlertIcon, ChevronDownIcon, SparkleIcon } from "../ui/icons";
import { Skeleton } from "../ui/skeleton";
import { Spinner } from "../ui/spinner";
import type { ChatItem } from "./chat-model";
import { ToolCard } from "./tool-card";
import { useChat } from "./use-chat";

const EXAMPLES = [
  "Create a company research table: Company is the primary column; Website is a URL found with web search from Company; Summary is one sentence from Website using scrape-url.",
  "Add an Employees number column that uses web search on Company.",
];

/**
 * The assistant, docked beside the grid (or beside the list of bases, where the first message
 * creates a base and the app then opens it). Collapsible; starts open on wide screens.
 */
export function ChatPanel({ baseId }: { baseId: string | null }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [baseName, setBaseName] = useState("");
  // The assistant changes the schema and spends credits: it needs schema:write and runs:write.
  const perms = usePermissions();
  const denied = perms.reason("schema:write", "use the assistant") ?? perms.reason("runs:write", "use the assistant");
  const qc = useQueryClient();
  const router = useRouter();
  const bodyId = useId();
  const log = useRef<HTMLDivElement>(null);
  const chat = useChat({
    baseId,
    onChange: () => {
      if (baseId) void qc.invalidateQueries({ queryKey: keys.structure(baseId) });
    },
    onDone: (id) => {
      if (!baseId) {
        void qc.invalidateQueries({ queryKey: keys.bases });
        router.push(`/bases/${id}`);
      }
    },
  });

  useEffect(() => setOpen(window.matchMedia("(min-width: 1024px)").matches), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: chat.items is the trigger: follow each new message.
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [chat.items]);

  function submit(e?: React.FormEvent) {
    e?.preventDefault();
    const message = text.trim();
    if (!message || chat.busy || denied) return;
    setText("");
    void chat.send(message, !baseId && baseName.trim() ? baseName.trim() : undefined);
  }

  if (!open) {
    return (
      <div className="flex shrink-0 border-l border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <button
          type="button"
          aria-expanded={false}
          aria-controls={bodyId}
          onClick={() => setOpen(true)}
          className="flex w-10 flex-col items-center gap-2 py-3 text-xs font-medium text-zinc-600 hover:bg-zinc-50 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
        >
          <SparkleIcon className="text-violet-500" />
          <span className="[writing-mode:vertical-rl]">Assistant</span>
        </button>
      </div>
    );
  }

  return (
    <aside
      aria-label="Assistant"
      className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-zinc-200 bg-zinc-50 shadow-2xl sm:w-[24rem] lg:static lg:z-auto lg:shadow-none dark:border-zinc-800 dark:bg-zinc-950"
    >
      <header className="flex h-11 shrink-0 items-center gap-2 border-b border-zinc-200 bg-white px-3 dark:border-zinc-800 dark:bg-zinc-900">
        <SparkleIcon className="text-violet-500" />
        <h2 className="flex-1 text-sm font-semibold">{baseId ? "Assistant" : "New base with the assistant"}</h2>
        {chat.busy ? <Spinner label="The assistant is working" className="text-indigo-500" /> : null}
        <button
          type="button"
          aria-expanded
          aria-controls={bodyId}
          aria-label="Collapse the assistant"
          onClick={() => setOpen(false)}
          className="grid size-7 -rotate-90 place-items-center rounded text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          <ChevronDownIcon />
        </button>
      </header>
      <div
        id={bodyId}
        ref={log}
        role="log"
        aria-label="Conversation"
        aria-live="polite"
        aria-busy={chat.busy}
        className="min-h-0 flex-1 space-y-3 overflow-y-auto px-3 py-3"
      >
        {chat.loading ? (
          <div className="space-y-2" aria-hidden>
            <Skeleton className="h-10 w-3/4" />
            <Skeleton className="ml-auto h-8 w-2/3" />
          </div>
        ) : chat.items.length === 0 ? (
          <Intro newBase={!baseId} onPick={setText} />
        ) : (
          chat.items.map((item) => <ChatRow key={item.id} item={item} />)
        )}
      </div>
      <form
        onSubmit={submit}
        className="shrink-0 space-y-2 border-t border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
      >
        {!baseId ? (
          <input
            aria-label="Base name (optional)"
            placeholder="Base name (optional)"
            value={baseName}
            maxLength={200}
            disabled={Boolean(denied)}
            onChange={(e) => setBaseName(e.target.value)}
            className="h-8 w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950"
          />
        ) : null}
        <textarea
          aria-label="Message the assistant"
          placeholder={baseId ? "Ask for columns, inputs, tools…" : "Describe the table you want…"}
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={Boolean(denied)}
          title={denied}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          className="block w-full resize-none rounded-md border border-zinc-300 bg-white px-2.5 py-2 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950"
        />
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs text-zinc-500 dark:text-zinc-400">Enter to send · Shift+Enter for a new line</p>
          {chat.busy ? (
            <Button size="sm" onClick={chat.stop}>
              Stop
            </Button>
          ) : (
            <Button size="sm" type="submit" variant="primary" disabled={!text.trim()} deniedReason={denied}>
              Send
            </Button>
          )}
        </div>
      </form>
    </aside>
  );
}

function ChatRow({ item }: { item: ChatItem }) {
  switch (item.kind) {
    case "user":
      return (
        <p className="ml-8 rounded-2xl rounded-br-sm bg-indigo-600 px-3 py-2 text-sm whitespace-pre-wrap text-white">
          {item.text}
        </p>
      );
    case "assistant":
      return (
        <p className="mr-6 rounded-2xl rounded-bl-sm bg-white px-3 py-2 text-sm whitespace-pre-wrap shadow-xs ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
          {item.text}
        </p>
      );
    case "tool":
      return <ToolCard item={item} />;
    case "error":
      return (
        <p
          role="alert"
          className="flex gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <AlertIcon className="mt-0.5 shrink-0" />
          <span>
            {item.code ? <span className="font-mono text-xs font-semibold">{item.code} · </span> : null}
            {item.message}
          </span>
        </p>
      );
  }
}

function Intro({ newBase, onPick }: { newBase: boolean; onPick: (text: string) => void }) {
  return (
    <div className="space-y-3 text-sm text-zinc-600 dark:text-zinc-400">
      <p>
        {newBase ? "Describe a table and the assistant creates it. " : "Ask the assistant to add or change columns. "}
        Say which column is the primary one, which columns feed which, and the tools each uses.
      </p>
      <ul className="space-y-2">
        {EXAMPLES.slice(newBase ? 0 : 1).map((e) => (
          <li key={e}>
            <button
              type="button"
              onClick={() => onPick(e)}
              className="w-full rounded-lg border border-zinc-200 bg-white p-2.5 text-left text-xs text-zinc-700 hover:border-indigo-300 hover:bg-indigo-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300 dark:hover:bg-indigo-950"
            >
              {e}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
