"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, errorMessage } from "../data/api";
import { keys } from "../data/queries";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { plural } from "../ui/format";
import { useToast } from "../ui/toast";

interface RevertCount {
  cells: number;
  rows: number;
}

const revertPath = (runId: string) => `/api/v1/runs/${encodeURIComponent(runId)}/revert`;

/** How long after it finished a run still offers to be reverted from the run bar. */
export const REVERT_OFFER_MS = 24 * 3600_000;

/**
 * "Revert run…": counts first (a dry run), then asks "Revert 12 cells in 10 rows?" and puts those
 * cells back to what they held before the run. Cells changed since are left alone by the server.
 */
export function RevertRunButton({
  baseId,
  runId,
  deniedReason,
}: {
  baseId: string;
  runId: string;
  deniedReason?: string;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const [counting, setCounting] = useState(false);
  const [count, setCount] = useState<RevertCount | null>(null);

  async function countFirst() {
    setCounting(true);
    try {
      const dry = await api<RevertCount>(revertPath(runId), { body: { dryRun: true } });
      if (dry.cells === 0)
        toast.info("Nothing to revert: every cell of this run has changed since, or kept its value.");
      else setCount(dry);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setCounting(false);
    }
  }

  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        deniedReason={deniedReason}
        disabled={counting}
        onClick={() => void countFirst()}
      >
        {counting ? "Counting…" : "Revert run…"}
      </Button>
      {count ? (
        <ConfirmDialog
          title={`Revert ${plural(count.cells, "cell")} in ${plural(count.rows, "row")}?`}
          description="Each goes back to the value it held before this run. Cells changed since (an edit, a review, another run) keep their value. The revert is recorded in each cell's history."
          confirmLabel="Revert run"
          onClose={() => setCount(null)}
          onConfirm={async () => {
            const done = await api<RevertCount>(revertPath(runId), { body: { dryRun: false } });
            toast.success(`Reverted ${plural(done.cells, "cell")} in ${plural(done.rows, "row")}.`);
            void qc.invalidateQueries({ queryKey: keys.runs(baseId) });
          }}
        />
      ) : null}
    </>
  );
}
