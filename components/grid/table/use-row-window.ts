"use client";
import { useCallback, useRef } from "react";
import { defaultRangeExtractor, type Range } from "@tanstack/react-virtual";

/**
 * The rows to render: the default (the rows in view and the overscan), but without the overscan
 * when the view leapt more than a screen since the last range. A fast scroll shows every row only
 * once, so rows rendered beside the view would be rendered for nothing, and they were 30% of the
 * rows rendered per step (bench:ui). A slow scroll keeps its overscan, so rows entering the view are
 * rendered before they show.
 */
export function useLeapingRange() {
  const last = useRef(-1);
  return useCallback((range: Range) => {
    const screen = range.endIndex - range.startIndex + 1;
    const leapt = last.current >= 0 && Math.abs(range.startIndex - last.current) > screen;
    last.current = range.startIndex;
    return defaultRangeExtractor(leapt ? { ...range, overscan: 0 } : range);
  }, []);
}

/**
 * The slot each rendered row is rendered in, used as its React key, and the rows in slot order
 * (`at`: the row's place in the list given). A row keeps its slot while it stays rendered; a row
 * leaving the view frees its slot for a row entering it, which takes over its elements. A scroll
 * then changes the text and attributes of elements in place instead of removing rows and creating
 * others (bench:ui: that was most of a fast scroll's cost), and as the rows are rendered in slot
 * order, no element moves. Rows are placed by transform and numbered by aria-rowindex, so the order
 * of the elements is not their order on screen.
 */
export function useRecycledSlots() {
  const held = useRef(new Map<string, number>());
  return useCallback((keys: string[]) => {
    const { slots, order } = assignSlots(held.current, keys);
    held.current = slots;
    return order;
  }, []);
}

/** The slots of `keys`, given those `held` before: a key keeps its slot, a new one takes the lowest free. */
export function assignSlots(held: ReadonlyMap<string, number>, keys: readonly string[]) {
  const slots = new Map<string, number>();
  const taken = new Set<number>();
  for (const key of keys) {
    const slot = held.get(key);
    if (slot === undefined) continue;
    slots.set(key, slot);
    taken.add(slot);
  }
  let free = 0;
  for (const key of keys) {
    if (slots.has(key)) continue;
    while (taken.has(free)) free++;
    slots.set(key, free);
    taken.add(free);
  }
  const order = keys.map((key, at) => ({ at, slot: slots.get(key)! })).sort((a, b) => a.slot - b.slot);
  return { slots, order };
}
