import type { CellView, RowRecord } from "../data/types";

// The grid's rows, outside React state. A base can hold 100,000 rows while AI cells fill one by
// one, so a cell change must not rebuild the row list: the list of row handles (what the table
// model sees) changes only when rows are added or removed, and each rendered row subscribes to
// its own record.

export interface RowHandle {
  readonly id: string;
}

export interface LoadState {
  phase: "idle" | "loading" | "done" | "error";
  loaded: number;
  error: string | null;
  /** How many rows match the query, as its first page counted them (null without a query). */
  total: number | null;
}

type Listener = () => void;

export class RowStore {
  private records = new Map<string, RowRecord>();
  private handleById = new Map<string, RowHandle>();
  private handles: RowHandle[] = [];
  private rowListeners = new Map<string, Set<Listener>>();
  private listListeners = new Set<Listener>();
  private anyListeners = new Set<Listener>();
  private loadListeners = new Set<Listener>();
  private load: LoadState = { phase: "idle", loaded: 0, error: null, total: null };
  private version = 0;

  get(id: string): RowRecord | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  get size(): number {
    return this.handles.length;
  }

  /** Stable until rows are added or removed (for useSyncExternalStore). */
  getHandles = (): RowHandle[] => this.handles;
  getVersion = (): number => this.version;
  getLoadState = (): LoadState => this.load;

  subscribeList = (fn: Listener) => this.add(this.listListeners, fn);
  subscribeAny = (fn: Listener) => this.add(this.anyListeners, fn);
  subscribeLoad = (fn: Listener) => this.add(this.loadListeners, fn);

  subscribeRow(id: string, fn: Listener): () => void {
    let set = this.rowListeners.get(id);
    if (!set) this.rowListeners.set(id, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.rowListeners.delete(id);
    };
  }

  setLoadState(patch: Partial<LoadState>): void {
    this.load = { ...this.load, ...patch };
    this.emit(this.loadListeners);
  }

  /** Replaces every row (a full reload), keeping handles of rows that survive. */
  replaceAll(rows: RowRecord[]): void {
    const nextRecords = new Map<string, RowRecord>();
    const nextHandles = new Map<string, RowHandle>();
    for (const r of rows) {
      nextRecords.set(r.id, r);
      nextHandles.set(r.id, this.handleById.get(r.id) ?? { id: r.id });
    }
    this.records = nextRecords;
    this.handleById = nextHandles;
    this.handles = [...nextHandles.values()];
    this.changed(null);
  }

  /** Adds rows at the end; rows already present are updated in place. */
  append(rows: RowRecord[]): void {
    let added = false;
    const updated: string[] = [];
    for (const r of rows) {
      if (this.records.has(r.id)) updated.push(r.id);
      else {
        const h = { id: r.id };
        this.handleById.set(r.id, h);
        added = true;
      }
      this.records.set(r.id, r);
    }
    if (added) this.handles = [...this.handleById.values()];
    this.changed(updated, added);
  }

  /** Updates rows that are present; unknown ids are ignored (they were deleted meanwhile). */
  upsertExisting(rows: RowRecord[]): void {
    const updated: string[] = [];
    for (const r of rows) {
      if (!this.records.has(r.id)) continue;
      this.records.set(r.id, r);
      updated.push(r.id);
    }
    if (updated.length) this.changed(updated, false);
  }

  patchCell(id: string, column: string, patch: Partial<CellView>): void {
    const r = this.records.get(id);
    if (!r) return;
    const cell = { ...(r.cells[column] ?? { value: "" }), ...patch };
    this.records.set(id, { ...r, cells: { ...r.cells, [column]: cell } });
    this.changed([id], false);
  }

  remove(ids: Iterable<string>): void {
    let removed = false;
    for (const id of ids) {
      if (!this.records.delete(id)) continue;
      this.handleById.delete(id);
      removed = true;
    }
    if (!removed) return;
    this.handles = [...this.handleById.values()];
    this.changed(null, true);
  }

  private changed(rowIds: string[] | null, listChanged = true): void {
    this.version++;
    if (rowIds === null) {
      for (const set of this.rowListeners.values()) this.emit(set);
    } else {
      for (const id of rowIds) {
        const set = this.rowListeners.get(id);
        if (set) this.emit(set);
      }
    }
    if (listChanged) this.emit(this.listListeners);
    this.emit(this.anyListeners);
  }

  private add(set: Set<Listener>, fn: Listener): () => void {
    set.add(fn);
    return () => set.delete(fn);
  }

  private emit(set: Set<Listener>): void {
    for (const fn of [...set]) fn();
  }
}
