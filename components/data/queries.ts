"use client";
import { useQuery } from "@tanstack/react-query";
import { api, basePath } from "./api";
import type { BaseStructure, BaseSummary } from "./types";

export const keys = {
  bases: ["bases"] as const,
  base: (baseId: string) => ["base", baseId] as const,
  structure: (baseId: string) => ["structure", baseId] as const,
  runs: (baseId: string) => ["runs", baseId] as const,
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
