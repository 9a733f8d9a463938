export type PopoverTab = "details" | "history";

const TABS: { id: PopoverTab; label: string }[] = [
  { id: "details", label: "Details" },
  { id: "history", label: "History" },
];

/** The popover's two views of a cell: what it holds now, and how it changed. Arrow keys move between them. */
export function PopoverTabs({
  tab,
  onTab,
  idPrefix,
}: {
  tab: PopoverTab;
  onTab: (t: PopoverTab) => void;
  idPrefix: string;
}) {
  return (
    <div
      role="tablist"
      aria-label="Cell details"
      className="flex gap-1 border-b border-zinc-100 px-3 dark:border-zinc-800"
      onKeyDown={(e) => {
        if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
        e.preventDefault();
        const next = TABS[(TABS.findIndex((t) => t.id === tab) + 1) % TABS.length].id;
        onTab(next);
        document.getElementById(`${idPrefix}-${next}-tab`)?.focus();
      }}
    >
      {TABS.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`${idPrefix}-${t.id}-tab`}
          aria-selected={tab === t.id}
          aria-controls={tab === t.id ? `${idPrefix}-${t.id}` : undefined}
          tabIndex={tab === t.id ? 0 : -1}
          onClick={() => onTab(t.id)}
          className={`-mb-px border-b-2 px-2 py-1.5 text-xs font-medium ${
            tab === t.id
              ? "border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300"
              : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
          }`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
