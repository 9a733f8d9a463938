// Which rows the grid reads next. Standing still or scrolling slowly, the rows in view come
// first. Scrolling fast, the rows in view now are gone before a read could bring them, so the
// reads go to where the scroll will be by the time they answer (the speed times the recent read
// time) and on along its path, in pages as long as the scroll covers in two reads' time: a fast
// scroll needs throughput, a slow one quick answers. Then a screen more on each side, and only when
// all of that is loaded or on its way, the first missing rows from the top (the background fill).

export type Range = [number, number];

export interface Viewport {
  /** The first and one past the last position in view. */
  start: number;
  end: number;
  /** Scroll speed in rows a second; negative upwards. */
  rowsPerSecond: number;
  /** The grid is being scrolled: work that can wait, waits. */
  scrolling?: boolean;
}

export interface Positions {
  readonly total: number;
  gaps(from: number, to: number): Iterable<Range>;
}

export interface Read {
  range: Range;
  background: boolean;
}

const MIN_PAGE = 50;
const MAX_PAGE = 2_000;
/** How far along its path a fast scroll is read ahead. */
const PATH_SECONDS = 0.5;

/** The next read, or null when nothing is missing (or only the background is, and it may not run). */
export function readPlan(
  rows: Positions,
  view: Viewport,
  covered: readonly Range[],
  readMs: number,
  backgroundPage: number,
): Read | null {
  const screen = Math.max(1, view.end - view.start);
  const speed = Math.abs(view.rowsPerSecond);
  const up = view.rowsPerSecond < 0;
  const page = Math.round(Math.min(MAX_PAGE, Math.max(MIN_PAGE, 2 * screen, (2 * speed * readMs) / 1000)));
  const ahead = Math.round((view.rowsPerSecond * readMs) / 1000);
  const windows: Range[] = [];
  if (Math.abs(ahead) < screen) windows.push([view.start, view.end]);
  if (ahead !== 0) {
    const path = Math.max(screen, Math.round(speed * PATH_SECONDS));
    windows.push(up ? [view.start + ahead - path, view.end + ahead] : [view.start + ahead, view.end + ahead + path]);
  }
  windows.push([view.start - screen, view.end + screen]);
  for (const w of windows) {
    const gap = firstUncovered(rows.gaps(w[0], w[1]), covered, up);
    if (gap) return { range: pageFrom(rows, gap, page, covered, up), background: false };
  }
  if (backgroundPage <= 0) return null;
  const gap = firstUncovered(rows.gaps(0, rows.total), covered, false);
  return gap ? { range: pageFrom(rows, gap, backgroundPage, covered, false), background: true } : null;
}

/** The first part of a gap no read covers yet (the last part, scrolling up). */
function firstUncovered(gaps: Iterable<Range>, covered: readonly Range[], up: boolean): Range | null {
  const order = up ? [...gaps].reverse() : gaps;
  for (const g of order) {
    const parts = subtract(g, covered);
    if (parts.length) return up ? parts[parts.length - 1] : parts[0];
  }
  return null;
}

/** A page of up to `size` missing rows that starts at the gap (ends at it, scrolling up). */
function pageFrom(rows: Positions, gap: Range, size: number, covered: readonly Range[], up: boolean): Range {
  if (up) {
    const missing = [...rows.gaps(gap[1] - size, gap[1])];
    const last = missing[missing.length - 1];
    const parts = subtract(last, covered);
    return parts[parts.length - 1] ?? gap;
  }
  const [first] = rows.gaps(gap[0], gap[0] + size);
  return subtract(first, covered)[0] ?? gap;
}

/** What is left of a range once the covered ranges are taken out of it. */
export function subtract(range: Range, covered: readonly Range[]): Range[] {
  let parts: Range[] = [range];
  for (const [a, b] of covered) {
    parts = parts.flatMap(([s, e]): Range[] => {
      if (b <= s || a >= e) return [[s, e]];
      const out: Range[] = [];
      if (a > s) out.push([s, a]);
      if (b < e) out.push([b, e]);
      return out;
    });
  }
  return parts;
}
