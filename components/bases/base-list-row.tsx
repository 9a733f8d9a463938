"use client";
import Link from "next/link";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, basePath, errorMessage } from "../data/api";
import { usePermissions } from "../auth/use-permissions";
import { keys } from "../data/queries";
import type { BaseSummary } from "../data/types";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { PencilIcon, TrashIcon } from "../ui/icons";
import { formatCount, plural, timeAgo } from "../ui/format";
import { useToast } from "../ui/toast";

export function BaseListRow({ base }: { base: BaseSummary }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(base.name);
  const [renameError, setRenameError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const perms = usePermissions();
  const toast = useToast();

  async function rename() {
    if (name.trim() === base.name) return setRenaming(false);
    setBusy(true);
    try {
      await api(basePath(base.baseId), { method: "PATCH", body: { baseName: name.trim() } });
      await qc.invalidateQueries({ queryKey: keys.bases });
      setRenaming(false);
      setRenameError(null);
    } catch (e) {
      setRenameError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await api(basePath(base.baseId), { method: "DELETE" });
      setConfirmDelete(false);
      await qc.invalidateQueries({ queryKey: keys.bases });
      toast.success(`Deleted “${base.name}”.`);
    } catch (e) {
      toast.error(errorMessage(e));
      setBusy(false);
    }
  }

  return (
    <li className="group flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-zinc-50 sm:flex-nowrap dark:hover:bg-zinc-800/40">
      <div className="min-w-0 flex-1 basis-full sm:basis-auto">
        {renaming ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void rename();
            }}
          >
            <input
              autoFocus
              aria-label={`New name for ${base.name}`}
              value={name}
              maxLength={200}
              onChange={(e) => setName(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Escape") {
                  setName(base.name);
                  setRenaming(false);
                  setRenameError(null);
                }
              }}
              onBlur={() => void rename()}
              disabled={busy}
              className="h-8 w-full max-w-sm rounded-md border border-indigo-400 bg-white px-2 text-sm outline-none focus:ring-2 focus:ring-indigo-500/30 dark:bg-zinc-950"
            />
            {renameError ? (
              <p role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
                {renameError}
              </p>
            ) : null}
          </form>
        ) : (
          <Link
            href={`/bases/${base.baseId}`}
            className="block truncate font-medium text-zinc-900 hover:text-indigo-600 hover:underline dark:text-zinc-100 dark:hover:text-indigo-400"
          >
            {base.name}
          </Link>
        )}
        <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{base.baseId}</p>
      </div>
      <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-zinc-600 tabular-nums sm:shrink-0 sm:flex-nowrap dark:text-zinc-400">
        <div className="sm:w-28 sm:text-right">
          <dt className="sr-only">Rows</dt>
          <dd>{plural(base.rowCount, "row")}</dd>
        </div>
        <div className="sm:w-24 sm:text-right">
          <dt className="sr-only">Columns</dt>
          <dd>{plural(base.columnCount, "column")}</dd>
        </div>
        <div className="sm:w-32 sm:text-right">
          <dt className="sr-only">Last updated</dt>
          <dd title={new Date(base.updatedAt).toLocaleString()}>{timeAgo(base.updatedAt)}</dd>
        </div>
      </dl>
      <div className="flex shrink-0 gap-1 sm:opacity-60 sm:group-hover:opacity-100 sm:focus-within:opacity-100">
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Rename ${base.name}`}
          onClick={() => setRenaming(true)}
          deniedReason={perms.reason("schema:write", "rename bases")}
        >
          <PencilIcon />
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Delete ${base.name}`}
          onClick={() => setConfirmDelete(true)}
          deniedReason={perms.reason("schema:write", "delete bases")}
        >
          <TrashIcon />
        </Button>
      </div>
      <Dialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={`Delete “${base.name}”?`}
        description={`Its ${formatCount(base.rowCount)} rows, columns and chat history are deleted for good.`}
      >
        <DialogFooter>
          <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
          <Button variant="danger" onClick={() => void remove()} disabled={busy}>
            Delete base
          </Button>
        </DialogFooter>
      </Dialog>
    </li>
  );
}
