"use client";
import { useCallback, useEffect, useMemo, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { changedMarkSince } from "./changed-since";
import { parseQuery, queryToParams, type FilterTree, type GridQuery } from "./query-state";

/** The grid's query, kept in the URL: every change replaces the current history entry. */
export function useGridQuery(): [GridQuery, (next: GridQuery) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const text = params.toString();
  const query = useMemo(() => parseQuery(new URLSearchParams(text)), [text]);
  const setQuery = useCallback(
    (next: GridQuery) => {
      const qs = queryToParams(next);
      if (qs === text) return;
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [router, pathname, text],
  );
  return [query, setQuery];
}

const MARK_TICK_MS = 60_000;

/**
 * From when the grid marks generated cells as changed (ms): the "Changed since" filter's time, or
 * 24 hours back, moved on each minute.
 */
export function useChangedMarkSince(filter: FilterTree | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MARK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return changedMarkSince(filter, now);
}
