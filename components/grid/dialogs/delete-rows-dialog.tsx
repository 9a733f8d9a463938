"use client";
import { useState } from "react";
import { Button } from "../../ui/button";
import { Dialog, DialogFooter } from "../../ui/dialog";
import { plural } from "../../ui/format";

export function DeleteRowsDialog({
  count,
  onConfirm,
  onClose,
}: {
  count: number;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Delete ${plural(count, "row")}?`}
      description="The rows and their AI results are deleted for good."
    >
      <DialogFooter>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await onConfirm();
            onClose();
          }}
        >
          Delete {plural(count, "row")}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
