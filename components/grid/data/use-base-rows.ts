"use client";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import type { ColumnView } from "../../data/types";
import { useToast } from "../../ui/toast";
import { RowLoader } from "./row-loader";
import type { Viewport } from "./read-plan";
import { RowStore, type RowHandle } from "./row-store";
import { useLiveUpdates } from "./use-live-updates";

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

  const load = useSyncExternalStore(store.subscribeLoad, store.getLoadState, store.getLoadState);
  const all = useModelHandles(store, load.phase === "loading", scrolling, view);
  return { store, loader, live, load, all, onViewport };
}

/** While rows load, the table model is rebuilt at most this often: each rebuild costs every loaded row. */
const MODEL_EVERY_MS = 1_000;

/** What the table model was built from: the rows it holds, and the store's drop version then. */
export interface ModelBuild {
  handles: RowHandle[];
  drops: number;
  /** Whether the model holds a row (its set of ids is built on the first question). */
  holds(id: string): boolean;
}

export function modelBuild(store: RowStore): ModelBuild {
  const handles = store.getHandles();
  let ids: Set<string> | null = null;
  return { handles, drops: store.getDropVersion(), holds: (id) => (ids ??= new Set(handles.map((h) => h.id))).has(id) };
}

/**
 * Whether the table model lags the store in a way the user could meet while rows load: a row it
 * holds has left the store (deleted elsewhere, so selecting it would act on nothing), or a row in
 * view is missing from it (not selectable yet). Rows read out of view can wait.
 */
export function modelLags(store: RowStore, built: ModelBuild, view: Viewport): boolean {
  if (store.getDropVersion() !== built.drops) return true;
  for (let i = view.start; i < view.end; i++) {
    const id = store.idAt(i);
    if (id !== undefined && !built.holds(id)) return true;
  }
  return false;
}

/**
 * The rows the table model holds (selection, keyboard moves): the store's loaded rows, taken at
 * once when nothing loads. While rows load, a rebuild over 100,000 rows is one long task, a dropped
 * frame or more (bench:ui), so the model is taken again only when it lags in view (`modelLags`),
 * at most once a second, and not at all while the grid scrolls. The grid shows rows as soon as
 * they are read either way; a row not yet in the model shows its values and is selectable a moment
 * later.
 */
function useModelHandles(store: RowStore, loading: boolean, scrolling: boolean, view: RefObject<Viewport>) {
  const [handles, setHandles] = useState(store.getHandles);
  const paused = loading && scrolling;
  useEffect(() => {
    if (paused) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let at = 0;
    let built = modelBuild(store);
    const update = () => {
      timer = null;
      at = Date.now();
      built = modelBuild(store);
      setHandles(built.handles);
    };
    const unsubscribe = store.subscribeList(() => {
      if (timer || (loading && !modelLags(store, built, view.current))) return;
      const wait = loading ? MODEL_EVERY_MS - (Date.now() - at) : 0;
      if (wait <= 0) update();
      else timer = setTimeout(update, wait);
    });
    update();
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store, loading, paused, view]);
  return handles;
}
