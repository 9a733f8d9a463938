// A request's loops over its rows run on the thread that serves every request. Validating a
// 10,000-row Add Rows in one go held that thread for 200 ms on a calm machine and over a second on
// a busy one, and every other request, /api/health included, waited that long. Loops that can grow
// that long give the thread back between slices of about SLICE_MS; their work is the same.

const SLICE_MS = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Calls `fn` on each item in order, yielding to other work whenever a slice has run SLICE_MS. */
export async function eachInSlices<T>(items: Iterable<T>, fn: (item: T, index: number) => void): Promise<void> {
  let since = performance.now();
  let index = 0;
  for (const item of items) {
    fn(item, index++);
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}

/** `items.map(fn)`, in slices (eachInSlices). */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = [];
  await eachInSlices(items, (item, index) => {
    out.push(fn(item, index));
  });
  return out;
}

/** Runs `steps` to its end, yielding to other work whenever a slice has run SLICE_MS; its result. */
export async function runInSlices<R>(steps: Generator<void, R>): Promise<R> {
  let since = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - since >= SLICE_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}
