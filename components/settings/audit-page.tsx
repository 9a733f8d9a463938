"use client";
import { useId, useState } from "react";
import { usePermissions } from "../auth/use-permissions";
import { useBases } from "../data/queries";
import { Button } from "../ui/button";
import { Skeleton } from "../ui/skeleton";
import { useAudit, useMembers } from "./queries";
import { inputClass, LoadError, SettingsShell, tableClass, tdClass, thClass } from "./settings-shell";
import type { AuditEntry, AuditFilters } from "./types";

const NO_FILTERS: AuditFilters = { action: "", actorId: "", baseId: "", since: "", until: "" };

/** Common actions, offered as suggestions; any `<noun>.<verb>` may be typed. */
const ACTION_SUGGESTIONS = [
  "base.create",
  "base.delete",
  "column.create",
  "column.update",
  "column.delete",
  "rows.delete",
  "import.start",
  "export.download",
  "run.start",
  "run.cancel",
  "key.create",
  "key.revoke",
  "member.role_change",
  "member.remove",
  "invitation.create",
  "invitation.revoke",
  "invitation.accept",
  "password_reset.create",
  "password_reset.redeem",
  "review.undo",
  "workspace.update",
  "webhook.create",
  "secret.create",
  "secret.delete",
];

export function AuditPage() {
  const perms = usePermissions();
  const denied = perms.reason("audit:read");
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const audit = useAudit(filters, !denied);
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <SettingsShell tab="audit" title="Audit log" description="Who changed what in this workspace, newest first.">
      {denied ? (
        <p className="rounded-xl border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {`${denied}.`}
        </p>
      ) : (
        <>
          <AuditFilterForm
            draft={draft}
            onDraft={setDraft}
            onApply={() => setFilters(draft)}
            onClear={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
            }}
          />
          {audit.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : audit.isError ? (
            <LoadError what="the audit log" error={audit.error} />
          ) : entries.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No entries.</p>
          ) : (
            <AuditTable entries={entries} />
          )}
          {audit.hasNextPage ? (
            <div className="mt-3 flex justify-center">
              <Button onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
                {audit.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </SettingsShell>
  );
}

function AuditFilterForm({
  draft,
  onDraft,
  onApply,
  onClear,
}: {
  draft: AuditFilters;
  onDraft: (f: AuditFilters) => void;
  onApply: () => void;
  onClear: () => void;
}) {
  const id = useId();
  const bases = useBases();
  const members = useMembers();
  const field = (name: keyof AuditFilters, label: string, input: React.ReactNode) => (
    <div className="flex flex-col">
      <label htmlFor={`${id}-${name}`} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
        {label}
      </label>
      {input}
    </div>
  );
  const set = (name: keyof AuditFilters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    onDraft({ ...draft, [name]: e.target.value });
  return (
    <form
      aria-label="Audit filters"
      className="mb-4 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      {field(
        "action",
        "Action",
        <input
          id={`${id}-action`}
          list={`${id}-actions`}
          value={draft.action}
          onChange={set("action")}
          placeholder="key.create, or key. for all"
          className={`${inputClass} w-48`}
        />,
      )}
      <datalist id={`${id}-actions`}>
        {ACTION_SUGGESTIONS.map((a) => (
          <option key={a} value={a} />
        ))}
      </datalist>
      {field(
        "actorId",
        "Actor id",
        <input
          id={`${id}-actorId`}
          list={`${id}-actors`}
          value={draft.actorId}
          onChange={set("actorId")}
          placeholder="usr_… or key_…"
          className={`${inputClass} w-40`}
        />,
      )}
      <datalist id={`${id}-actors`}>
        {(members.data ?? []).map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.name ? `${m.name} <${m.email}>` : m.email}
          </option>
        ))}
      </datalist>
      {field(
        "baseId",
        "Base",
        <select id={`${id}-baseId`} value={draft.baseId} onChange={set("baseId")} className={`${inputClass} w-44`}>
          <option value="">Any base</option>
          {(bases.data ?? []).map((b) => (
            <option key={b.baseId} value={b.baseId}>
              {b.name}
            </option>
          ))}
        </select>,
      )}
      {field(
        "since",
        "Since",
        <input
          id={`${id}-since`}
          type="datetime-local"
          value={draft.since}
          onChange={set("since")}
          className={inputClass}
        />,
      )}
      {field(
        "until",
        "Until",
        <input
          id={`${id}-until`}
          type="datetime-local"
          value={draft.until}
          onChange={set("until")}
          className={inputClass}
        />,
      )}
      <Button type="submit" variant="primary">
        Apply filters
      </Button>
      <Button variant="ghost" onClick={onClear}>
        Clear
      </Button>
    </form>
  );
}

// Below md the table stacks: each entry is a block, each cell a line with its column's name in
// front (from data-label), so the address and the summary stay on screen at a phone's width.
const stackedRow =
  "max-md:block max-md:border-b max-md:border-zinc-100 max-md:px-3 max-md:py-2 dark:max-md:border-zinc-800";
const stackedCell =
  "max-md:flex max-md:gap-2 max-md:border-0 max-md:px-0 max-md:py-0.5 max-md:before:w-16 max-md:before:shrink-0 max-md:before:font-sans max-md:before:text-xs max-md:before:text-zinc-500 max-md:before:content-[attr(data-label)]";
const COLUMNS = ["Time", "Actor", "Action", "Target", "Base", "IP", "Summary"] as const;
const cellProps = (label: (typeof COLUMNS)[number], extra = "") => ({
  "data-label": label,
  className: `${tdClass} ${stackedCell} ${extra}`,
});

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const bases = useBases();
  const baseName = (id: string) => bases.data?.find((b) => b.baseId === id)?.name ?? id;
  return (
    <div className="md:overflow-x-auto">
      <table className={`${tableClass} max-md:block`} aria-label="Audit log">
        <thead className="max-md:hidden">
          <tr>
            {COLUMNS.map((h) => (
              <th key={h} className={thClass}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-md:block">
          {entries.map((e) => (
            <tr key={e.id} data-action={e.action} className={stackedRow}>
              <td {...cellProps("Time", "whitespace-nowrap")}>
                <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time>
              </td>
              <td {...cellProps("Actor", "break-all")}>
                <span>
                  <span title={e.actor.id}>{e.actor.name}</span>
                  <span className="ml-1 text-xs text-zinc-500">({e.actor.type === "key" ? "key" : "user"})</span>
                </span>
              </td>
              <td {...cellProps("Action", "font-mono text-xs")}>{e.action}</td>
              <td {...cellProps("Target", "font-mono text-xs break-all")}>
                {e.target ? `${e.target.type} ${e.target.id}` : "—"}
              </td>
              <td {...cellProps("Base", "break-all")}>{e.baseId ? baseName(e.baseId) : "—"}</td>
              <td {...cellProps("IP", "font-mono text-xs break-all")}>{e.ip ?? "—"}</td>
              <td {...cellProps("Summary", "min-w-0")}>
                {e.summary && Object.keys(e.summary).length ? (
                  <details className="min-w-0">
                    <summary className="cursor-pointer text-xs text-indigo-700 dark:text-indigo-300">
                      {Object.keys(e.summary).length} fields
                    </summary>
                    <pre className="mt-1 max-w-md overflow-x-auto whitespace-pre-wrap break-all rounded bg-zinc-50 p-2 text-[11px] dark:bg-zinc-950">
                      {JSON.stringify(e.summary, null, 2)}
                    </pre>
                  </details>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
