"use client";
import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import { useCallback, useDeferredValue, useMemo, useState, useSyncExternalStore } from "react";
import type { ColumnView } from "../../data/types";
import type { RowHandle, RowStore } from "../data/row-store";

export interface ReviewTarget {
  rowId: string;
  columnId: string;
}

interface Position {
  row: number;
  col: number;
}

const after = (a: Position, b: Position) => a.row > b.row || (a.row === b.row && a.col > b.col);

/**
 * The cells that need review among the loaded rows, in grid order, and the one under review.
 * A cell reviewed drops out of the list as its row refreshes; moving on is relative to where the
 * current cell sits in the grid, so it works whether or not that cell is still in the list.
 */
export function useReviewWalker(store: RowStore, handles: RowHandle[], columns: readonly ColumnView[]) {
  const version = useDeferredValue(useSyncExternalStore(store.subscribeAny, store.getVersion, store.getVersion));
  const ai = useMemo(() => columns.filter(isGenerated), [columns]);
  const targets = useMemo(() => {
    void version;
    const out: (ReviewTarget & Position)[] = [];
    handles.forEach((h, row) => {
      const record = store.get(h.id);
      ai.forEach((c, col) => {
        if (record?.cells[c.name]?.needsReview) out.push({ rowId: h.id, columnId: c.id, row, col });
      });
    });
    return out;
  }, [version, handles, ai, store]);

  const [chosen, setChosen] = useState<ReviewTarget | null>(null);
  const positionOf = useCallback(
    (t: ReviewTarget): Position | null => {
      const row = handles.findIndex((h) => h.id === t.rowId);
      const col = ai.findIndex((c) => c.id === t.columnId);
      return row < 0 || col < 0 ? null : { row, col };
    },
    [handles, ai],
  );

  // Without a choice, the first cell of the list; kept by value, so a refresh of the list does not
  // count as moving to another cell.
  const firstRow = targets[0]?.rowId;
  const firstColumn = targets[0]?.columnId;
  const current = useMemo<ReviewTarget | null>(
    () =>
      chosen && positionOf(chosen)
        ? chosen
        : firstRow && firstColumn
          ? { rowId: firstRow, columnId: firstColumn }
          : null,
    [chosen, positionOf, firstRow, firstColumn],
  );

  /** The next (or previous) cell to review from the current one. */
  const neighbour = useCallback(
    (step: 1 | -1): ReviewTarget | null => {
      const at = current ? positionOf(current) : null;
      const list = step === 1 ? targets : [...targets].reverse();
      const found = at ? list.find((t) => (step === 1 ? after(t, at) : after(at, t))) : targets[0];
      return found ? { rowId: found.rowId, columnId: found.columnId } : null;
    },
    [current, positionOf, targets],
  );

  const move = useCallback(
    (step: 1 | -1) => {
      const next = neighbour(step);
      if (next) setChosen(next);
      return next;
    },
    [neighbour],
  );

  return { targets, current, choose: setChosen, move, neighbour };
}
