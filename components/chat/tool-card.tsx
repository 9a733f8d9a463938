import type { ChatItem } from "./chat-model";
import { AlertIcon, CheckboxIcon, SparkleIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";

type ToolItem = Extract<ChatItem, { kind: "tool" }>;

const OPERATIONS: Record<string, string> = {
  create: "Create column",
  update: "Update column",
  delete: "Delete column",
  move: "Move column",
};

const list = (v: unknown) =>
  (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map((x) =>
    typeof x === "object" && x && "name" in x ? String((x as { name: unknown }).name) : String(x),
  );

/** The arguments worth showing for a manageColumn call, as label/value pairs. */
function keyArgs(args: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  if (typeof args.type === "string") out.push(["Type", args.type]);
  if (args.isPrimary === true) out.push(["Primary", "yes"]);
  if (typeof args.isAiEnabled === "boolean") out.push(["AI", args.isAiEnabled ? "on" : "off"]);
  const inputs = list(args.inputColumns ?? args.inputColumnIds);
  if (inputs.length) out.push(["Inputs", inputs.join(", ")]);
  const tools = list(args.tools);
  if (tools.length) out.push(["Tools", tools.join(", ")]);
  const model = (args.columnOptions as { model?: unknown } | undefined)?.model;
  if (typeof model === "string") out.push(["Model", model]);
  if (typeof args.position === "number" || typeof args.index === "number")
    out.push(["Position", String(args.position ?? args.index)]);
  if (typeof args.instructions === "string" && args.instructions) {
    out.push([
      "Instructions",
      args.instructions.length > 140 ? `${args.instructions.slice(0, 140)}…` : args.instructions,
    ]);
  }
  return out;
}

/** One tool call: what the assistant asked for, then what happened. */
export function ToolCard({ item }: { item: ToolItem }) {
  const { args, outcome, state } = item;
  const isColumn = item.toolName === "manageColumn";
  const op = typeof args.columnOperation === "string" ? args.columnOperation : "";
  const title = isColumn
    ? (OPERATIONS[op] ?? "Change column")
    : item.toolName === "renameBase"
      ? "Rename base"
      : item.toolName === "getStructure"
        ? "Read the table"
        : item.toolName;
  const subject = String(args.name ?? args.columnName ?? outcome?.column?.name ?? "");
  const pairs = isColumn ? keyArgs(args) : [];
  const tone =
    state === "error"
      ? "border-red-200 dark:border-red-900/70"
      : state === "done"
        ? "border-emerald-200 dark:border-emerald-900/70"
        : "border-zinc-200 dark:border-zinc-700";

  return (
    <article
      aria-label={`${title}${subject ? ` ${subject}` : ""}`}
      data-state={state}
      className={`rounded-lg border bg-white text-[13px] shadow-xs dark:bg-zinc-900 ${tone}`}
    >
      <header className="flex items-center gap-2 px-3 py-2">
        <SparkleIcon className="shrink-0 text-violet-500" />
        <p className="min-w-0 flex-1 truncate">
          <span className="text-zinc-600 dark:text-zinc-400">{title}</span>{" "}
          {subject ? <strong className="font-semibold">{subject}</strong> : null}
        </p>
        {state === "pending" ? (
          <Spinner label="Working" className="text-indigo-500" />
        ) : state === "done" ? (
          <CheckboxIcon label="Succeeded" className="text-emerald-600 dark:text-emerald-400" />
        ) : (
          <AlertIcon label="Failed" className="text-red-600 dark:text-red-400" />
        )}
      </header>
      {pairs.length ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-t border-zinc-100 px-3 py-2 text-xs dark:border-zinc-800">
          {pairs.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-zinc-500 dark:text-zinc-400">{k}</dt>
              <dd className="min-w-0 break-words text-zinc-800 dark:text-zinc-200">{v}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {outcome ? (
        <p
          className={`border-t px-3 py-1.5 text-xs ${
            outcome.error
              ? "border-red-100 bg-red-50 text-red-800 dark:border-red-900/60 dark:bg-red-950/50 dark:text-red-200"
              : "border-emerald-100 bg-emerald-50 text-emerald-800 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-200"
          }`}
        >
          {outcome.error ? (
            <>
              <span className="font-mono font-semibold">{outcome.error.code}</span>: {outcome.error.message}
            </>
          ) : (
            (outcome.message ?? "Done.")
          )}
        </p>
      ) : null}
    </article>
  );
}
