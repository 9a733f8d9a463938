import type { Viewport } from "../data/read-plan";
import type { RowHandle, RowStore } from "../data/row-store";

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
