/**
 * The mark of a generated cell whose value really changed lately: a small corner triangle, with
 * "Changed <time>" as its tooltip and, for screen readers, as text.
 */
export function ChangedMark({ at }: { at: string }) {
  const when = new Date(at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return (
    <span
      className="absolute top-0 left-0 size-0 border-t-[9px] border-r-[9px] border-t-sky-500 border-r-transparent dark:border-t-sky-400"
      title={`Changed ${when}`}
      data-changed={at}
    >
      <span className="sr-only"> (changed {when})</span>
    </span>
  );
}
