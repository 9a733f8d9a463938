"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { usePermissions } from "../../auth/use-permissions";
import { api, basePath, errorMessage } from "../../data/api";
import { keys, useViews } from "../../data/queries";
import type { ViewRecord } from "../../data/types";
import { ChevronDownIcon, TableIcon } from "../../ui/icons";
import { Menu, type MenuItem } from "../../ui/menu";
import { NameDialog } from "../../ui/name-dialog";
import { useToast } from "../../ui/toast";
import { sameAsView, viewQuery, type GridQuery } from "./query-state";

type Naming = { kind: "create" } | { kind: "rename"; view: ViewRecord } | null;

/** The base's saved views: pick one, save the current filter as one, rename or delete it. */
export function ViewsMenu({
  baseId,
  query,
  onChange,
}: {
  baseId: string;
  query: GridQuery;
  onChange: (q: GridQuery) => void;
}) {
  const views = useViews(baseId);
  const qc = useQueryClient();
  const toast = useToast();
  const perms = usePermissions();
  const [naming, setNaming] = useState<Naming>(null);
  const list = views.data ?? [];
  const current = list.find((v) => (query.viewId ? v.id === query.viewId : v.isDefault));
  const modified = current ? !sameAsView(query, current) : false;

  const state = () => ({ filter: query.filter, sort: query.sort, search: query.search });
  const call = async <T,>(path: string, method: string, body?: unknown) => {
    const result = await api<T>(path, { method, body });
    await qc.invalidateQueries({ queryKey: keys.views(baseId) });
    return result;
  };
  const run = (task: () => Promise<void>) => void task().catch((e) => toast.error(errorMessage(e)));

  // Saving, renaming and deleting views write (rows:write); choosing one only reads.
  const denied = perms.reason("rows:write", "save views");
  const items: MenuItem[] = [
    ...list.map((v) => ({
      label: `${v.id === current?.id ? "✓ " : ""}${v.name}`,
      onSelect: () => onChange(viewQuery(v)),
    })),
    {
      label: "Save as a new view…",
      onSelect: () => setNaming({ kind: "create" }),
      disabled: Boolean(denied),
      hint: denied,
    },
  ];
  if (current && !current.isDefault) {
    items.push(
      {
        label: `Save changes to “${current.name}”`,
        disabled: !modified || Boolean(denied),
        hint: denied ?? "Nothing changed since it was saved",
        onSelect: () =>
          run(() =>
            call(`${basePath(baseId)}/views/${current.id}`, "PATCH", state()).then(() =>
              toast.info(`Saved “${current.name}”.`),
            ),
          ),
      },
      {
        label: `Rename “${current.name}”…`,
        onSelect: () => setNaming({ kind: "rename", view: current }),
        disabled: Boolean(denied),
        hint: denied,
      },
      {
        label: `Delete “${current.name}”`,
        danger: true,
        disabled: Boolean(denied),
        hint: denied,
        onSelect: () =>
          run(async () => {
            await call(`${basePath(baseId)}/views/${current.id}`, "DELETE");
            onChange({ ...query, viewId: null });
            toast.info(`Deleted the view “${current.name}”.`);
          }),
      },
    );
  }

  return (
    <>
      <Menu
        label={`View: ${current?.name ?? "All rows"}${modified ? " (edited)" : ""}`}
        items={items}
        className="inline-flex h-8 max-w-56 items-center gap-1.5 rounded-md px-2 text-[13px] font-medium text-zinc-800 hover:bg-zinc-100 dark:text-zinc-100 dark:hover:bg-zinc-800"
      >
        <TableIcon className="shrink-0" />
        <span className="truncate" data-testid="current-view">
          {current?.name ?? "All rows"}
        </span>
        {modified ? (
          <span className="text-zinc-500" title="Changed since the view was saved">
            (edited)
          </span>
        ) : null}
        <ChevronDownIcon className="shrink-0 text-xs" />
      </Menu>
      {naming ? (
        <NameDialog
          title={naming.kind === "create" ? "Save as a new view" : "Rename the view"}
          initial={naming.kind === "rename" ? naming.view.name : ""}
          maxLength={100}
          onClose={() => setNaming(null)}
          onSubmit={async (name) => {
            if (naming.kind === "create") {
              const view = await call<ViewRecord>(`${basePath(baseId)}/views`, "POST", { name, ...state() });
              onChange({ ...query, viewId: view.id });
            } else await call(`${basePath(baseId)}/views/${naming.view.id}`, "PATCH", { name });
            setNaming(null);
          }}
        />
      ) : null}
    </>
  );
}
