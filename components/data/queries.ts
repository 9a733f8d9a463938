"use client";
import { useQuery } from "@tanstack/react-query";
import { api, ApiError, basePath } from "./api";
import type { BaseStructure, BaseSummary } from "./types";

export const keys = {
  bases: ["bases"] as const,
  base: (baseId: string) => ["base", baseId] as const,
  structure: (baseId: string) => ["structure", baseId] as const,
  runAvailable: (baseId: string) => ["run-available", baseId] as const,
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

/**
 * Whether this server has the run API: an estimate for no columns costs nothing and changes
 * nothing, and a server without the route answers the API's JSON 404.
 */
export function useRunAvailable(baseId: string) {
  return useQuery({
    queryKey: keys.runAvailable(baseId),
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      try {
        await api(`${basePath(baseId)}/run/estimate`, { body: { columnIds: [] } });
        return true;
      } catch (e) {
        return !(e instanceof ApiError && e.status === 404 && e.code === "not_found");
      }
    },
  });
}
