import type { CellView, RowRecord } from "../../data/types";

// The grid's rows, outside React state. A base can hold 100,000 rows while AI cells fill one by
// one, so a cell change must not rebuild the row list: the list of row handles (what the table
// model sees) changes only when rows are added, removed or moved, and each rendered row
// subscribes to its own record. Rows sit at positions, and a position may not be loaded yet: the
// grid reads the rows around its viewport first, wherever that is, and the rest after.

export interface RowHandle {
  readonly id: string;
}

export interface LoadState {
  phase: "idle" | "loading" | "done" | "error";
  loaded: number;
  error: string | null;
  /** How many rows match the query (every row without one), as the reads counted them; null before the first. */
  total: number | null;
}

type Listener = () => void;

interface Entry {
  record: RowRecord;
  readonly handle: RowHandle;
  /** Its position among the slots. */
  at: number;
}

export class RowStore {
  /**
   * The loaded rows by id: record, handle and position in one entry, so that placing a row read
   * is one lookup (a fast scroll through a loading base places thousands of rows a second).
   */
  private entries = new Map<string, Entry>();
  /** The row id at each position of the base (of the query's order); undefined: not loaded yet. */
  private slots: (string | undefined)[] = [];
  /**
   * The loaded rows in position order: the table model's data. Built when asked for, not on every
   * page read: a build walks every position of the base, and the model asks at most once a second
   * while rows load.
   */
  private handles: RowHandle[] | null = [];
  private listVersion = 0;
  /** Counts rows leaving the store (deleted, displaced, dropped by a reset or a smaller count). */
  private drops = 0;
  private rowListeners = new Map<string, Set<Listener>>();
  private listListeners = new Set<Listener>();
  private anyListeners = new Set<Listener>();
  private loadListeners = new Set<Listener>();
  private load: LoadState = { phase: "idle", loaded: 0, error: null, total: null };
  private version = 0;

  get(id: string): RowRecord | undefined {
    return this.entries.get(id)?.record;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Rows loaded. */
  get size(): number {
    return this.entries.size;
  }

  /** Rows known to exist, loaded or not: the grid's height. */
  get total(): number {
    return this.slots.length;
  }

  /** The id of the row at a position, when it is loaded. */
  idAt(position: number): string | undefined {
    return this.slots[position];
  }

  positionOf(id: string): number | undefined {
    return this.entries.get(id)?.at;
  }

  /** The positions in [from, to) that hold no row yet, as ranges, lazily (a scan can stop at the first). */
  *gaps(from: number, to: number): Generator<[number, number]> {
    const end = Math.min(to, this.slots.length);
    for (let i = Math.max(0, from); i < end; i++) {
      if (this.slots[i] !== undefined) continue;
      const start = i;
      while (i < end && this.slots[i] === undefined) i++;
      yield [start, i];
    }
  }

  /** The loaded rows with an AI cell pending or running. */
  processingIds(): string[] {
    return [...this.entries.values()].filter((e) => e.record.processing).map((e) => e.handle.id);
  }

  /** Stable until rows are added, removed or moved (for useSyncExternalStore). */
  getHandles = (): RowHandle[] => {
    if (!this.handles) {
      const handles: RowHandle[] = [];
      for (const id of this.slots) if (id !== undefined) handles.push(this.entries.get(id)!.handle);
      this.handles = handles;
    }
    return this.handles;
  };
  /** Changes whenever getHandles would: what the grid renders by, without building the list. */
  getListVersion = (): number => this.listVersion;
  /** Changes whenever a row leaves the store: a list taken before may hold a row that is gone. */
  getDropVersion = (): number => this.drops;
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
    // Called on every scroll step while rows load: an unchanged state must not render the page again.
    if ((Object.keys(patch) as (keyof LoadState)[]).every((k) => this.load[k] === patch[k])) return;
    this.load = { ...this.load, ...patch };
    this.emit(this.loadListeners);
  }

  /**
   * Starts over with `total` rows, of which those read at `offset` are known (a reload, a new
   * query). Rows that stay keep their handles, so the selection survives.
   */
  reset(total: number, offset: number, rows: RowRecord[]): void {
    const before = this.entries;
    this.entries = new Map();
    this.drops++;
    this.slots = new Array<string | undefined>(total).fill(undefined);
    this.place(offset, rows, before);
    this.listChanged();
    this.changed(null);
  }

  /**
   * Rows read at a position. A row found at another position than before moved there (rows were
   * added or deleted before it meanwhile), and a row it displaces is forgotten until it is read
   * again where it now is.
   */
  fill(offset: number, rows: RowRecord[]): void {
    const moved = this.place(offset, rows);
    if (moved) this.listChanged();
    this.changed(
      rows.map((r) => r.id),
      moved,
    );
  }

  /** The number of rows the base holds now: positions past it are dropped, new ones wait to be read. */
  setTotal(total: number): void {
    if (total === this.slots.length) return;
    if (total > this.slots.length) {
      for (let i = this.slots.length; i < total; i++) this.slots.push(undefined);
      this.listChanged();
      return this.changed([], true);
    }
    for (let i = total; i < this.slots.length; i++) {
      const id = this.slots[i];
      if (id !== undefined) this.forget(id);
    }
    this.slots.length = total;
    this.listChanged();
    this.changed(null);
  }

  /** Adds rows at the end; rows already present are updated in place. */
  append(rows: RowRecord[]): void {
    const fresh = rows.filter((r) => !this.entries.has(r.id));
    for (const r of rows) {
      const e = this.entries.get(r.id);
      if (e) e.record = r;
    }
    if (fresh.length) {
      this.place(this.slots.length, fresh);
      this.listChanged();
    }
    this.changed(
      rows.map((r) => r.id),
      fresh.length > 0,
    );
  }

  /** Updates rows that are present; unknown ids are ignored (they were deleted meanwhile). */
  upsertExisting(rows: RowRecord[]): void {
    const updated: string[] = [];
    for (const r of rows) {
      const e = this.entries.get(r.id);
      if (!e) continue;
      e.record = r;
      updated.push(r.id);
    }
    if (updated.length) this.changed(updated, false);
  }

  patchCell(id: string, column: string, patch: Partial<CellView>): void {
    const e = this.entries.get(id);
    if (!e) return;
    const r = e.record;
    const cell = { ...(r.cells[column] ?? { value: "" }), ...patch };
    e.record = { ...r, cells: { ...r.cells, [column]: cell } };
    this.changed([id], false);
  }

  /** Removes rows; returns how many of the ids were not loaded (their positions are unknown). */
  remove(ids: Iterable<string>): number {
    const gone = new Set<number>();
    let unknown = 0;
    for (const id of new Set(ids)) {
      const at = this.entries.get(id)?.at;
      if (at === undefined) unknown++;
      else {
        gone.add(at);
        this.forget(id);
      }
    }
    if (gone.size === 0) return unknown;
    this.slots = this.slots.filter((_, i) => !gone.has(i));
    this.slots.forEach((id, i) => id !== undefined && (this.entries.get(id)!.at = i));
    this.listChanged();
    this.changed(null, true);
    return unknown;
  }

  /**
   * Writes rows into their positions; returns whether any row took a position it did not hold.
   * A row new to the store takes its handle from `earlier` (the entries before a reset), if there.
   */
  private place(offset: number, rows: RowRecord[], earlier?: Map<string, Entry>): boolean {
    let moved = false;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const at = offset + i;
      while (this.slots.length <= at) this.slots.push(undefined);
      const held = this.slots[at];
      let e = this.entries.get(r.id);
      if (held !== r.id) {
        moved = true;
        if (held !== undefined) this.forget(held);
        if (e) this.slots[e.at] = undefined;
        this.slots[at] = r.id;
      }
      if (e) {
        e.record = r;
        e.at = at;
      } else {
        e = { record: r, handle: earlier?.get(r.id)?.handle ?? { id: r.id }, at };
        this.entries.set(r.id, e);
      }
    }
    return moved;
  }

  private forget(id: string): void {
    const e = this.entries.get(id);
    if (e && this.slots[e.at] === id) this.slots[e.at] = undefined;
    if (this.entries.delete(id)) this.drops++;
  }

  private listChanged(): void {
    this.handles = null;
    this.listVersion++;
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
