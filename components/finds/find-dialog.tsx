"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { usePermissions } from "../auth/use-permissions";
import { errorMessage } from "../data/api";
import { extendFind, findKeys, isLooking, startFind, useFind } from "../data/finds";
import { keys } from "../data/queries";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { SearchIcon } from "../ui/icons";
import { plural } from "../ui/format";
import { useToast } from "../ui/toast";
import { FindFields } from "./find-fields";
import { emptyFindForm, findBody, type FindForm } from "./find-form";
import { FindPreview } from "./find-progress";
import { FindsPanel } from "./finds-panel";

/** The toolbar's "Find rows": opens the dialog, which holds its own state. */
export function FindRowsButton({ baseId }: { baseId: string }) {
  const [open, setOpen] = useState(false);
  const denied = usePermissions().reason("runs:write", "find rows");
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => setOpen(true)}
        title="Add rows found on the web, each criterion verified with sources"
        deniedReason={denied}
      >
        <SearchIcon /> Find rows
      </Button>
      {open ? <FindDialog baseId={baseId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

type Tab = "new" | "past";

function FindDialog({ baseId, onClose }: { baseId: string; onClose: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [tab, setTab] = useState<Tab>("new");
  const [form, setForm] = useState<FindForm>(emptyFindForm);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { data: preview } = useFind(baseId, previewId);
  const checked = findBody(form, false);
  const count = "body" in checked ? checked.body.count : null;

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: keys.runs(baseId) });
    void qc.invalidateQueries({ queryKey: findKeys.finds(baseId) });
  };
  const submit = async (mode: "preview" | "find") => {
    const made = findBody(form, mode === "preview");
    if ("error" in made) return setError(made.error);
    setBusy(true);
    setError(null);
    try {
      if (mode === "preview") {
        setPreviewId((await startFind(baseId, made.body)).id);
      } else if (previewId) {
        const { count: n, maxCredits } = made.body;
        await extendFind(baseId, previewId, { count: n, ...(maxCredits ? { maxCredits } : {}) });
      } else {
        await startFind(baseId, made.body);
      }
      refresh();
      if (mode === "find") {
        toast.success(`Finding ${plural(made.body.count, "row")}: follow it in the run bar.`);
        onClose();
      }
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const previewing = previewId !== null;
  const looking = previewing && (!preview || isLooking(preview));
  const tabClass = (t: Tab) =>
    `rounded-md px-2.5 py-1 text-sm font-medium ${tab === t ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100" : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"}`;
  return (
    <Dialog
      open
      onClose={onClose}
      title="Find rows"
      description="Rows found on the web from a description; every criterion is verified on the candidate's own pages, with sources."
      className="w-[min(64rem,calc(100vw-2rem))]!"
    >
      <div role="tablist" aria-label="Find rows" className="flex gap-1 px-5 pt-3">
        <button
          type="button"
          role="tab"
          aria-selected={tab === "new"}
          className={tabClass("new")}
          onClick={() => setTab("new")}
        >
          New find
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === "past"}
          className={tabClass("past")}
          onClick={() => setTab("past")}
        >
          Past finds
        </button>
      </div>
      <div role="tabpanel" className="min-h-0 flex-1 space-y-4 overflow-y-auto px-5 py-4 text-sm">
        {tab === "past" ? (
          <FindsPanel baseId={baseId} />
        ) : (
          <>
            <FindFields form={form} onChange={setForm} disabled={busy || previewing} />
            {preview ? <FindPreview find={preview} /> : null}
            {error ? (
              <p role="alert" className="text-red-700 dark:text-red-400">
                {error}
              </p>
            ) : null}
          </>
        )}
      </div>
      <DialogFooter>
        {previewing && tab === "new" ? (
          <Button className="mr-auto" variant="ghost" disabled={busy} onClick={() => setPreviewId(null)}>
            Edit the find
          </Button>
        ) : null}
        <Button onClick={onClose}>Close</Button>
        {tab === "new" ? (
          <>
            {!previewing ? (
              <Button disabled={busy} onClick={() => void submit("preview")}>
                Preview
              </Button>
            ) : null}
            <Button variant="primary" disabled={busy || looking || count === null} onClick={() => void submit("find")}>
              Find {count === null ? "rows" : plural(count, "row")}
            </Button>
          </>
        ) : null}
      </DialogFooter>
    </Dialog>
  );
}
