"use client";
import { useQuery } from "@tanstack/react-query";
import { api, basePath } from "../data/api";
import { keys } from "../data/queries";
import type { RunView } from "../data/types";

/** The base's latest run; refetched when the live stream says a run changed. */
export function useLatestRun(baseId: string) {
  return useQuery({
    queryKey: keys.runs(baseId),
    queryFn: () => api<{ runs: RunView[] }>(`${basePath(baseId)}/runs?limit=1`).then((r) => r.runs[0] ?? null),
  });
}
