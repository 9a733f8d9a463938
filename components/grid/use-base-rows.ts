"use client";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { ColumnView } from "../data/types";
import { useToast } from "../ui/toast";
import { RowLoader } from "./row-loader";
import { RowStore } from "./row-store";
import { useLiveUpdates } from "./use-live-updates";

/**
 * The rows of one base that match the grid's query (all of them without one): loaded page by
 * page into a RowStore and kept live over SSE. A new query swaps the rows in place; an undefined
 * request waits (the query cannot be built yet).
 */
export function useBaseRows(baseId: string, columns: ColumnView[] | undefined, request: object | null | undefined) {
  const toast = useToast();
  const [store] = useState(() => new RowStore());
  const [loader, setLoader] = useState<RowLoader | null>(null);
  const requestKey = request === undefined ? undefined : JSON.stringify(request);
  const started = useRef(false);

  useEffect(() => {
    if (requestKey === undefined) return; // not ready to ask yet
    const l = new RowLoader(baseId, store, toast.error, JSON.parse(requestKey) as object | null);
    setLoader(l);
    void l.start(started.current);
    started.current = true;
    return () => l.dispose();
  }, [baseId, store, toast, requestKey]);

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
  return { store, loader, live, load, all };
}
