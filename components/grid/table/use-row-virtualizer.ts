"use client";
import { useCallback } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { HEADER_HEIGHT } from "./grid-header";
import { ROW_HEIGHT } from "./grid-row";
import { isScaled, scrollScale } from "./scroll-scale";
import { useLeapingRange } from "./use-row-window";
import { useScaledRows, type RowItem } from "./use-scaled-rows";

const OVERSCAN = 5;

/**
 * The grid's rows in view, wherever they come from: the virtualizer while the body fits the
 * browser's layout (`maxHeight` px), the scaled scroll past it (scroll-scale.ts). Both hooks run on
 * every render, as hooks must; only one is enabled, and the other computes nothing.
 */
export function useRowVirtualizer(
  scrollRef: React.RefObject<HTMLDivElement | null>,
  count: number,
  maxHeight: number,
): {
  scaled: boolean;
  totalSize: number;
  items: RowItem[];
  range: { startIndex: number; endIndex: number } | null;
  isScrolling: boolean;
  scrollToIndex(index: number): void;
} {
  const scale = scrollScale(count, ROW_HEIGHT, HEADER_HEIGHT, maxHeight);
  const scaled = isScaled(scale);
  const rowRange = useLeapingRange();
  const scaledRange = useLeapingRange();
  const rowV = useVirtualizer({
    enabled: !scaled,
    count: scaled ? 0 : count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // A jump renders every row in view and the overscan anew: ten rows a side cost a third more.
    overscan: OVERSCAN,
    rangeExtractor: rowRange,
    // A scroll renders in React's next batch, not synchronously inside the scroll event: a
    // synchronous render there made the next scroll event's read of scrollTop force a layout.
    useFlushSync: false,
    paddingStart: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  const big = useScaledRows({
    enabled: scaled,
    scrollRef,
    scale,
    count,
    rowHeight: ROW_HEIGHT,
    header: HEADER_HEIGHT,
    overscan: OVERSCAN,
    rangeExtractor: scaledRange,
  });
  const scrollToIndex = useCallback(
    (index: number) => (scaled ? big.scrollToIndex(index) : rowV.scrollToIndex(index, { align: "auto" })),
    [scaled, big.scrollToIndex, rowV],
  );
  if (scaled)
    return {
      scaled,
      totalSize: scale.physical,
      items: big.items,
      range: big.range,
      isScrolling: big.isScrolling,
      scrollToIndex,
    };
  return {
    scaled,
    totalSize: rowV.getTotalSize(),
    items: rowV.getVirtualItems(),
    range: rowV.range,
    isScrolling: rowV.isScrolling,
    scrollToIndex,
  };
}
