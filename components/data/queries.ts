"use client";
import { useQuery } from "@tanstack/react-query";
import { api, basePath, columnPath, evaluationPath } from "./api";
import type {
  BaseStructure,
  BaseSummary,
  ColumnQuality,
  Evaluation,
  EvaluationSummary,
  RowsPage,
  ViewRecord,
} from "./types";

export const keys = {
  bases: ["bases"] as const,
  base: (baseId: string) => ["base", baseId] as const,
  structure: (baseId: string) => ["structure", baseId] as const,
  runs: (baseId: string) => ["runs", baseId] as const,
  views: (baseId: string) => ["views", baseId] as const,
  reviewCount: (baseId: string) => ["review-count", baseId] as const,
  /** Every column's quality in a base: review changes any of them. */
  qualities: (baseId: string) => ["quality", baseId] as const,
  quality: (baseId: string, columnId: string) => ["quality", baseId, columnId] as const,
  evaluations: (baseId: string, columnId: string) => ["evaluations", baseId, columnId] as const,
  evaluation: (evaluationId: string) => ["evaluation", evaluationId] as const,
};

export function useBases() {
  return useQuery({
    queryKey: keys.bases,
    queryFn: () => api<{ bases: BaseSummary[] }>("/api/v1/bases").then((r) => r.bases),
  });
}

export function useBaseSummary(baseId: string) {
  return useQuery({ queryKey: keys.base(baseId), queryFn: () => api<BaseSummary>(basePath(baseId)), retry: false });
}

export function useStructure(baseId: string) {
  return useQuery({
    queryKey: keys.structure(baseId),
    queryFn: () => api<BaseStructure>(`${basePath(baseId)}/base-structure`),
    retry: false,
  });
}

export function useViews(baseId: string) {
  return useQuery({
    queryKey: keys.views(baseId),
    queryFn: () => api<{ views: ViewRecord[] }>(`${basePath(baseId)}/views`).then((r) => r.views),
  });
}

/** How many rows match `filter`, counted by the server; disabled without a filter. */
export function useRowCount(baseId: string, key: readonly unknown[], filter: object | null) {
  return useQuery({
    queryKey: [...key, JSON.stringify(filter)],
    enabled: filter !== null,
    queryFn: () =>
      api<RowsPage>(`${basePath(baseId)}/rows/query`, { body: { filter, limit: 1, count: true } }).then(
        (r) => r.total ?? 0,
      ),
    placeholderData: (previous) => previous,
  });
}

/** A column's agreement with its reviewers, its calibration and its review workload. */
export function useColumnQuality(baseId: string, columnId: string) {
  return useQuery({
    queryKey: keys.quality(baseId, columnId),
    queryFn: () => api<ColumnQuality>(`${columnPath(baseId, columnId)}/quality`),
  });
}

/** The column's past evaluations, newest first, without their per-row results. */
export function useEvaluations(baseId: string, columnId: string) {
  return useQuery({
    queryKey: keys.evaluations(baseId, columnId),
    queryFn: () =>
      api<{ evaluations: EvaluationSummary[] }>(`${columnPath(baseId, columnId)}/evaluations?limit=20`).then(
        (r) => r.evaluations,
      ),
  });
}

export const isEvaluating = (e: Pick<EvaluationSummary, "status"> | undefined) =>
  e?.status === "running" || e?.status === "paused";

/** One evaluation with its results, polled each second while it runs: the live stream names only its run. */
export function useEvaluation(evaluationId: string) {
  return useQuery({
    queryKey: keys.evaluation(evaluationId),
    queryFn: () => api<Evaluation>(evaluationPath(evaluationId)),
    refetchInterval: (q) =>
      q.state.status === "error" || (q.state.data && !isEvaluating(q.state.data)) ? false : 1_000,
  });
}
