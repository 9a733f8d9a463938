"use client";
import { useEffect, useState, type RefObject } from "react";
import type { Viewport } from "../data/read-plan";
import type { RowStore } from "../data/row-store";
import { modelBuild, modelLags } from "./table-model-build";

/** While rows load, the table model is rebuilt at most this often: each rebuild costs every loaded row. */
const MODEL_EVERY_MS = 1_000;

/**
 * The rows the table model holds (selection, keyboard moves): the store's loaded rows, taken at
 * once when nothing loads. While rows load, a rebuild over 100,000 rows is one long task, a dropped
 * frame or more (bench:ui), so the model is taken again only when it lags in view (`modelLags`),
 * at most once a second, and not at all while the grid scrolls. The grid shows rows as soon as
 * they are read either way; a row not yet in the model shows its values and is selectable a moment
 * later.
 */
export function useModelHandles(store: RowStore, loading: boolean, scrolling: boolean, view: RefObject<Viewport>) {
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
