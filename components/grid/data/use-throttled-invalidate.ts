"use client";
import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { RowStore } from "./row-store";

const THROTTLE_MS = 2_000;

/**
 * Refetches server-side counts (rows needing review, the base's row count) as the rows change,
 * at most once every two seconds: a run finishing thousands of cells is one refetch, not thousands.
 */
export function useThrottledInvalidate(store: RowStore, queryKeys: readonly (readonly unknown[])[]) {
  const qc = useQueryClient();
  const signature = JSON.stringify(queryKeys);
  useEffect(() => {
    const list = JSON.parse(signature) as unknown[][];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsubscribe = store.subscribeAny(() => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        for (const queryKey of list) void qc.invalidateQueries({ queryKey });
      }, THROTTLE_MS);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store, qc, signature]);
}
