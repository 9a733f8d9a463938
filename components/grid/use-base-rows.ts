"use client";
import { useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { ColumnView } from "../data/types";
import { useToast } from "../ui/toast";
import { needsReview } from "./cell-state";
import { RowLoader } from "./row-loader";
import { RowStore, type RowHandle } from "./row-store";
import { useLiveUpdates } from "./use-live-updates";

/**
 * The rows of one base: loaded page by page into a RowStore, kept live over SSE, and
 * optionally narrowed to the rows that need review.
 */
export function useBaseRows(baseId: string, columns: ColumnView[] | undefined, threshold: number, reviewOnly: boolean) {
  const toast = useToast();
  const [store] = useState(() => new RowStore());
  const [loader, setLoader] = useState<RowLoader | null>(null);

  useEffect(() => {
    const l = new RowLoader(baseId, store, toast.error);
    setLoader(l);
    void l.start();
    return () => l.dispose();
  }, [baseId, store, toast]);

  const cols = useMemo(() => columns ?? [], [columns]);
  const live = useLiveUpdates(baseId, store, loader, cols);

  // Cells are keyed by column name: a rename or a type change makes the loaded rows stale.
  const shape = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!columns) return;
    const next = new Map(columns.map((c) => [c.id, `${c.name}\u0000${c.type}`]));
    const prev = shape.current;
    shape.current = next;
    if (prev && loader && [...next].some(([id, sig]) => prev.has(id) && prev.get(id) !== sig)) void loader.reload();
  }, [columns, loader]);

  const all = useSyncExternalStore(store.subscribeList, store.getHandles, store.getHandles);
  const load = useSyncExternalStore(store.subscribeLoad, store.getLoadState, store.getLoadState);
  const version = useDeferredValue(useSyncExternalStore(store.subscribeAny, store.getVersion, store.getVersion));
  const aiColumns = useMemo(() => cols.filter((c) => c.isAiEnabled), [cols]);

  const review = useMemo(() => {
    void version;
    if (!aiColumns.length) return [] as RowHandle[];
    return all.filter((h) => {
      const r = store.get(h.id);
      return r ? needsReview(r.cells, aiColumns, threshold) : false;
    });
  }, [all, store, aiColumns, threshold, version]);

  // Keep the filtered list's identity while its members are unchanged, so the table model is not rebuilt.
  const stable = useRef<RowHandle[]>([]);
  if (review.length !== stable.current.length || review.some((h, i) => h !== stable.current[i])) stable.current = review;

  return { store, loader, live, load, all, review: stable.current, handles: reviewOnly ? stable.current : all };
}
