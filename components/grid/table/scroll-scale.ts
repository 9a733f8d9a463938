// The grid's scroll range when its rows are taller than a browser lays out. A body of 36 px rows is
// 36,000,000 px at a million rows; Chromium's layout units end near 33.5 million px and Firefox's
// near 17.9 million, so the last rows would be out of the scrollbar's reach. Past `max`, the body is
// `max` px tall and a scroll position stands for a proportional position in the full height (as
// large virtual grids do), so the scrollbar's top is the first row and its bottom the last. Below
// `max` the scale is 1 and nothing is mapped.

export interface ScrollScale {
  /** The full height: the header and every row at its own height. */
  virtual: number;
  /** The height laid out: the full height, or `max` past it. */
  physical: number;
}

export function scrollScale(rows: number, rowHeight: number, header: number, max: number): ScrollScale {
  const virtual = header + rows * rowHeight;
  return { virtual, physical: Math.min(virtual, Math.max(max, header)) };
}

export const isScaled = (s: ScrollScale) => s.physical < s.virtual;

/**
 * The full height's offset for a scroll position. The ends map onto the ends: the top onto the
 * first row, the scroll's bottom (`physical - viewport`) onto the last row at the bottom of the view.
 */
export function toVirtual(s: ScrollScale, top: number, viewport: number): number {
  const range = s.physical - viewport;
  if (!isScaled(s) || range <= 0) return top;
  return Math.min(s.virtual - viewport, Math.max(0, (top * (s.virtual - viewport)) / range));
}

/** The scroll position for an offset in the full height: the inverse of toVirtual. */
export function toPhysical(s: ScrollScale, offset: number, viewport: number): number {
  const range = s.virtual - viewport;
  if (!isScaled(s) || range <= 0) return offset;
  return Math.min(s.physical - viewport, Math.max(0, (offset * (s.physical - viewport)) / range));
}

/**
 * The rows in view at an offset of the full height, as the virtualizer computes them: the first row
 * whose start is at or above the offset, up to the first whose end reaches the view's bottom.
 */
export function rowsInView(offset: number, viewport: number, rows: number, rowHeight: number, header: number) {
  if (rows === 0) return { startIndex: 0, endIndex: -1 };
  const last = rows - 1;
  const clamp = (i: number) => Math.max(0, Math.min(last, i));
  return {
    startIndex: clamp(Math.floor((offset - header) / rowHeight)),
    endIndex: clamp(Math.ceil((offset + viewport - header) / rowHeight) - 1),
  };
}

/**
 * The offset that brings a row into view with the least scroll (`align: auto`): unchanged when it
 * is in view below the header, else the row at the top under the header or at the bottom.
 */
export function offsetShowing(
  index: number,
  offset: number,
  viewport: number,
  s: ScrollScale,
  rowHeight: number,
  header: number,
): number {
  const start = header + index * rowHeight;
  let target = offset;
  if (start < offset + header) target = start - header;
  else if (start + rowHeight > offset + viewport) target = start + rowHeight - viewport;
  return Math.max(0, Math.min(Math.max(0, s.virtual - viewport), target));
}
