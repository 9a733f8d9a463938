import { RowRefetcher, type RowSink } from "./row-refetcher";

/**
 * The page reads in flight, and the rows changed while they were: a page read before a change may
 * still land with the older row, so those rows are read again once the read has written its rows.
 * A newly connected live stream waits for the reads in flight (`settled`).
 */
export class PageReads {
  private inFlight = new Set<Promise<void>>();
  private changedDuringRead = new Set<string>();
  private readonly refetcher: RowRefetcher;

  constructor(baseId: string, sink: RowSink) {
    this.refetcher = new RowRefetcher(baseId, sink);
  }

  dispose(): void {
    this.refetcher.dispose();
  }

  /** Runs a read of pages; rows changed meanwhile are fetched again once it has written them. */
  async run(read: () => Promise<void>): Promise<void> {
    const reading = read();
    this.inFlight.add(reading);
    try {
      await reading;
    } finally {
      this.inFlight.delete(reading);
      const changed = [...this.changedDuringRead];
      if (this.inFlight.size === 0) this.changedDuringRead.clear();
      this.refresh(changed);
    }
  }

  /** Once the reads in flight now have landed or failed. */
  settled(): Promise<unknown> {
    return Promise.allSettled([...this.inFlight]);
  }

  /** Refetches rows whose cells changed. */
  refresh(rowIds: Iterable<string>): void {
    const ids = [...rowIds];
    if (this.inFlight.size > 0) for (const id of ids) this.changedDuringRead.add(id);
    this.refetcher.queue(ids);
  }
}
