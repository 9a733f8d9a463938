"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { Range } from "@tanstack/react-virtual";
import { offsetShowing, rowsInView, toPhysical, toVirtual, type ScrollScale } from "./scroll-scale";

/** A rendered row: its index, and its top in the laid-out body. */
export interface RowItem {
  index: number;
  start: number;
}

interface Options {
  enabled: boolean;
  scrollRef: React.RefObject<HTMLDivElement | null>;
  scale: ScrollScale;
  count: number;
  rowHeight: number;
  header: number;
  overscan: number;
  rangeExtractor(range: Range): number[];
}

/** As the virtualizer's default: a scroll is over 150 ms after its last event. */
const SCROLL_RESET_MS = 150;

/**
 * The rows of a body taller than the browser lays out (scroll-scale.ts): the scroll position is read
 * as an offset in the full height, the rows there are rendered around the scroll position, and
 * bringing a row into view writes the scroll position that stands for it. Used only past the
 * scale's `max`; below it the grid keeps the virtualizer, unchanged.
 */
export function useScaledRows(o: Options) {
  const { enabled, scrollRef, scale, count, rowHeight, header } = o;
  const [view, setView] = useState({ top: 0, offset: 0, height: 0, scrolling: false });
  // The offset last written, kept with the scroll position the browser made of it: a position
  // rounded to a pixel reads back as the exact row asked for, not a few pixels beside it.
  const written = useRef<{ top: number; offset: number } | null>(null);
  const scaleRef = useRef(scale);
  scaleRef.current = scale;

  const read = useCallback((el: HTMLDivElement, scrolling: boolean) => {
    const top = el.scrollTop;
    const height = el.clientHeight;
    const w = written.current;
    const offset = w && Math.abs(w.top - top) < 1 ? w.offset : toVirtual(scaleRef.current, top, height);
    setView({ top, offset, height, scrolling });
  }, []);

  useEffect(() => {
    const el = scrollRef.current;
    if (!enabled || !el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      read(el, true);
      clearTimeout(timer);
      timer = setTimeout(() => read(el, false), SCROLL_RESET_MS);
    };
    const resize = new ResizeObserver(() => read(el, false));
    el.addEventListener("scroll", onScroll, { passive: true });
    resize.observe(el);
    read(el, false);
    return () => {
      clearTimeout(timer);
      el.removeEventListener("scroll", onScroll);
      resize.disconnect();
    };
  }, [enabled, scrollRef, read]);

  // The scale changes as rows are counted: the same scroll position then stands for another offset.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scale.virtual is the trigger.
  useEffect(() => {
    const el = scrollRef.current;
    if (enabled && el) read(el, false);
  }, [enabled, scale.virtual, read]);

  const range = rowsInView(view.offset, view.height, count, rowHeight, header);
  const indexes =
    enabled && count > 0 && view.height > 0 ? o.rangeExtractor({ ...range, overscan: o.overscan, count }) : [];
  const items: RowItem[] = indexes.map((index) => ({
    index,
    start: view.top + header + index * rowHeight - view.offset,
  }));

  const scrollToIndex = useCallback(
    (index: number) => {
      const el = scrollRef.current;
      if (!el) return;
      const s = scaleRef.current;
      const height = el.clientHeight;
      const w = written.current;
      const now = w && Math.abs(w.top - el.scrollTop) < 1 ? w.offset : toVirtual(s, el.scrollTop, height);
      const offset = offsetShowing(index, now, height, s, rowHeight, header);
      if (offset === now) return;
      el.scrollTop = toPhysical(s, offset, height);
      written.current = { top: el.scrollTop, offset };
      // A move smaller than a pixel of the scrollbar fires no scroll event: render it here.
      read(el, view.scrolling);
    },
    [scrollRef, rowHeight, header, read, view.scrolling],
  );

  return {
    items,
    range: enabled ? range : null,
    isScrolling: view.scrolling,
    scrollToIndex,
  };
}
