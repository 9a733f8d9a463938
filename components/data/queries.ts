"use client";
import { useQuery } from "@tanstack/react-query";
import { api, basePath } from "./api";
import type { BaseStructure, BaseSummary, RowsPage, ViewRecord } from "./types";

export const keys = {
  bases: ["bases"] as const,
  base: (baseId: string) => ["base", baseId] as const,
  structure: (baseId: string) => ["structure", baseId] as const,
  runs: (baseId: string) => ["runs", baseId] as const,
  views: (baseId: string) => ["views", baseId] as const,
  reviewCount: (baseId: string) => ["review-count", baseId] as const,
};

export function useBases() {
  return useQuery({ queryKey: keys.bases, queryFn: () => api<{ bases: BaseSummary[] }>("/api/v1/bases").then((r) => r.bases) });
}

export function useBaseSummary(baseId: string) {
  return useQuery({ queryKey: keys.base(baseId), queryFn: () => api<BaseSummary>(basePath(baseId)), retry: false });
}

export function useStructure(baseId: string) {
  return useQuery({ queryKey: keys.structure(baseId), queryFn: () => api<BaseStructure>(`${basePath(baseId)}/base-structure`), retry: false });
}

export function useViews(baseId: string) {
  return useQuery({ queryKey: keys.views(baseId), queryFn: () => api<{ views: ViewRecord[] }>(`${basePath(baseId)}/views`).then((r) => r.views) });
}

/** How many rows match `filter`, counted by the server; disabled without a filter. */
export function useRowCount(baseId: string, key: readonly unknown[], filter: object | null) {
  return useQuery({
    queryKey: [...key, JSON.stringify(filter)],
    enabled: filter !== null,
    queryFn: () => api<RowsPage>(`${basePath(baseId)}/rows/query`, { body: { filter, limit: 1, count: true } }).then((r) => r.total ?? 0),
    placeholderData: (previous) => previous,
  });
}
