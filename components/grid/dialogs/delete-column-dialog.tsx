"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, ApiError, basePath, errorMessage } from "../../data/api";
import { keys } from "../../data/queries";
import type { ColumnView } from "../../data/types";
import { Button } from "../../ui/button";
import { Dialog, DialogFooter } from "../../ui/dialog";
import { useToast } from "../../ui/toast";

/** Deletes a column; when other columns use it (or it is the primary) the API says so and a forced delete is offered. */
export function DeleteColumnDialog({
  baseId,
  column,
  onClose,
}: {
  baseId: string;
  column: ColumnView;
  onClose: () => void;
}) {
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const toast = useToast();

  async function remove(force: boolean) {
    setBusy(true);
    try {
      await api(`${basePath(baseId)}/columns/${column.id}${force ? "?force=true" : ""}`, { method: "DELETE" });
      await qc.invalidateQueries({ queryKey: keys.structure(baseId) });
      toast.success(`Deleted column “${column.name}”.`);
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && !force) setConflict(e.message);
      else toast.error(errorMessage(e));
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Delete column “${column.name}”?`}
      description="Its values in every row are deleted for good."
    >
      {conflict ? (
        <p
          role="alert"
          className="mx-5 mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          {conflict.replace(/;? ?(or )?pass \?force=true[^.]*\.?/i, ".")} Deleting it anyway removes it from their
          inputs.
        </p>
      ) : null}
      <DialogFooter>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="danger" disabled={busy} onClick={() => void remove(Boolean(conflict))}>
          {conflict ? "Delete anyway" : "Delete column"}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
