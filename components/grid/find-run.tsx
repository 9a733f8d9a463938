"use client";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../data/api";
import { extendFind, findKeys, useFinds, type FindView } from "../data/finds";
import { keys } from "../data/queries";
import type { RunView } from "../data/types";
import { Button } from "../ui/button";
import { SearchIcon } from "../ui/icons";
import { plural } from "../ui/format";
import { useToast } from "../ui/toast";

// A find is a run (trigger "find"): the run bar names it and shows the find's own counts, polled
// while it looks, and offers to look for more once it has stopped.

/** The find whose run (its latest extension's) this is; undefined for other runs or until loaded. */
export function useRunFind(baseId: string, run: RunView | null | undefined): FindView | undefined {
  const isFind = run?.trigger === "find";
  const { data } = useFinds(baseId, { enabled: isFind, poll: true });
  return isFind ? data?.find((f) => f.runId === run.id) : undefined;
}

export function FindMoreButton({ find, deniedReason }: { find: FindView; deniedReason?: string }) {
  const qc = useQueryClient();
  const toast = useToast();
  return (
    <Button
      size="sm"
      variant="secondary"
      deniedReason={deniedReason}
      onClick={async () => {
        const answer = window.prompt("How many more rows should it find?", String(Math.min(find.count, 100)));
        if (answer === null) return;
        const count = Number(answer);
        if (!Number.isInteger(count) || count < 1) return toast.error("Enter a whole number of rows from 1.");
        try {
          await extendFind(find.baseId, find.id, { count });
          toast.success(`Finding ${plural(count, "more row")}.`);
        } catch (e) {
          toast.error(errorMessage(e));
        }
        void qc.invalidateQueries({ queryKey: keys.runs(find.baseId) });
        void qc.invalidateQueries({ queryKey: findKeys.finds(find.baseId) });
      }}
    >
      <SearchIcon /> Find more
    </Button>
  );
}
