"use client";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { ColumnView } from "../../data/types";
import { useToast } from "../../ui/toast";
import { RowLoader } from "./row-loader";
import type { Viewport } from "./read-plan";
import { RowStore } from "./row-store";
import { useLiveUpdates } from "./use-live-updates";
import { useModelHandles } from "../table/use-model-handles";

/**
 * The rows of one base that match the grid's query (all of them without one): loaded into a
 * RowStore, the viewport's first (the grid reports it through onViewport), and kept live over SSE.
 * A new query swaps the rows in place; an undefined request waits (the query cannot be built yet).
 */
export function useBaseRows(baseId: string, columns: ColumnView[] | undefined, request: object | null | undefined) {
  const toast = useToast();
  const [store] = useState(() => new RowStore());
  const [loader, setLoader] = useState<RowLoader | null>(null);
  const requestKey = request === undefined ? undefined : JSON.stringify(request);
  // Where the grid is: a new loader (a new query) reads there first.
  const view = useRef<Viewport>({ start: 0, end: 60, rowsPerSecond: 0 });
  const loaderRef = useRef<RowLoader | null>(null);
  const [scrolling, setScrolling] = useState(false);

  useEffect(() => {
    if (requestKey === undefined) return; // not ready to ask yet
    const l = new RowLoader(baseId, store, toast.error, JSON.parse(requestKey) as object | null);
    l.setViewport(view.current);
    loaderRef.current = l;
    setLoader(l);
    void l.reload();
    return () => l.dispose();
  }, [baseId, store, toast, requestKey]);

  const onViewport = useCallback((v: Viewport) => {
    view.current = v;
    loaderRef.current?.setViewport(v);
    setScrolling(v.scrolling === true);
  }, []);

  const cols = useMemo(() => columns ?? [], [columns]);
  const live = useLiveUpdates(baseId, loader, cols);

  // Cells are keyed by column name: a rename or a type change makes the loaded rows stale.
  const shape = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!columns) return;
    const next = new Map(columns.map((c) => [c.id, `${c.name}\u0000${c.type}`]));
    const prev = shape.current;
    shape.current = next;
    if (prev && loader && [...next].some(([id, sig]) => prev.has(id) && prev.get(id) !== sig)) void loader.reload();
  }, [columns, loader]);

  const load = useSyncExternalStore(store.subscribeLoad, store.getLoadState, store.getLoadState);
  const all = useModelHandles(store, load.phase === "loading", scrolling, view);
  return { store, loader, live, load, all, onViewport };
}
