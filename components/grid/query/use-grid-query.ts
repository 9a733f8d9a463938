"use client";
import { useCallback, useMemo } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { parseQuery, queryToParams, type GridQuery } from "./query-state";

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
