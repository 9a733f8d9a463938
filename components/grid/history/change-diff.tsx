import { ExternalIcon } from "../../ui/icons";
import { hostOf, parseSource } from "../cells/cell-state";
import { statusNote, wordDiff } from "./history-model";

interface Side {
  value: string;
  status: string | null;
}

/**
 * Before → after, word by word: removed words struck through on red, added ones on green, the
 * rest as it was. Screen readers hear "removed" and "added" (del and ins carry no role of their own).
 */
export function ChangeDiff({ before, after }: { before: Side; after: Side }) {
  const parts = wordDiff(before.value, after.value);
  const beforeNote = statusNote(before.status);
  const afterNote = statusNote(after.status);
  return (
    <div className="text-[13px] leading-relaxed" data-testid="change-diff">
      {parts.length === 0 ? <span className="text-zinc-500 italic dark:text-zinc-400">(empty)</span> : null}
      <p className="max-h-40 overflow-y-auto break-words whitespace-pre-wrap">
        {parts.map((p, i) =>
          p.kind === "removed" ? (
            <Mark key={i} as="del" label="removed" text={p.text} className={REMOVED} />
          ) : p.kind === "added" ? (
            <Mark key={i} as="ins" label="added" text={p.text} className={ADDED} />
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
      </p>
      {beforeNote || afterNote ? (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          Status: {beforeNote ?? "done"} → {afterNote ?? "done"}
        </p>
      ) : null}
    </div>
  );
}

/** The sources of the value after a change, as links with their titles and hosts. */
export function ChangeSources({ sources }: { sources: string[] | null }) {
  const links = (sources ?? []).map(parseSource).filter((s) => s !== null);
  if (!links.length) return null;
  return (
    <ul aria-label="Sources of the new value" className="mt-1.5 space-y-0.5">
      {links.map((s) => (
        <li key={s.url} className="flex min-w-0 items-baseline gap-1.5 text-xs">
          <a
            href={s.url}
            target="_blank"
            rel="noopener noreferrer nofollow"
            title={s.url}
            className="inline-flex min-w-0 items-center gap-1 text-indigo-700 hover:underline dark:text-indigo-300"
          >
            <span className="truncate">{s.label}</span>
            <ExternalIcon className="shrink-0" />
          </a>
          <span className="shrink-0 text-zinc-500 dark:text-zinc-400">{hostOf(s.url)}</span>
        </li>
      ))}
    </ul>
  );
}

const REMOVED =
  "rounded-sm bg-red-100 text-red-900 line-through decoration-red-700/70 dark:bg-red-950/70 dark:text-red-200";
const ADDED = "rounded-sm bg-emerald-100 text-emerald-900 no-underline dark:bg-emerald-950/70 dark:text-emerald-200";

/** A removed or added run of words, named for screen readers, which read no strike-through. */
function Mark(props: { as: "del" | "ins"; label: string; text: string; className: string }) {
  const Tag = props.as;
  return (
    <Tag className={props.className}>
      <span className="sr-only">[{props.label}: </span>
      {props.text}
      <span className="sr-only">]</span>
    </Tag>
  );
}
