"use client";
import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { candidateSchema, findSchema } from "@/lib/http/schemas/finds.ts";
import type { FindRequest } from "@/lib/domain/finds/schemas.ts";
import { api, basePath } from "./api";

// Finds as the UI reads them. A find is polled while it looks: the live stream names its run, and
// the find's own event may not reach every deployment yet.

export type FindView = z.infer<typeof findSchema>;
export type FindCandidate = z.infer<typeof candidateSchema>;
export type FindVerdict = FindCandidate["verdicts"][number];
export type CandidateStatus = FindCandidate["status"];
export type FindBody = Omit<FindRequest, "excludeExisting" | "entity"> & { maxCredits?: number };

export const findKeys = {
  finds: (baseId: string) => ["finds", baseId] as const,
  find: (baseId: string, findId: string) => ["finds", baseId, findId] as const,
  candidates: (baseId: string, findId: string, statuses: readonly string[]) =>
    ["finds", baseId, findId, "candidates", statuses.join(",")] as const,
};

const findsPath = (baseId: string) => `${basePath(baseId)}/finds`;
const findPath = (baseId: string, findId: string) => `${findsPath(baseId)}/${encodeURIComponent(findId)}`;

/** Whether the find is still looking (its run goes on); a paused one waits for a person. */
export const isLooking = (f: Pick<FindView, "status" | "phase"> | undefined) =>
  f !== undefined && f.status === "running" && f.phase !== "done";

const POLL_MS = 1_000;

export function useFinds(baseId: string, opts: { enabled?: boolean; poll?: boolean } = {}) {
  return useQuery({
    queryKey: findKeys.finds(baseId),
    enabled: opts.enabled ?? true,
    queryFn: () => api<{ finds: FindView[] }>(`${findsPath(baseId)}?limit=20`).then((r) => r.finds),
    refetchInterval: (q) => (opts.poll && q.state.data?.some(isLooking) ? POLL_MS : false),
  });
}

export function useFind(baseId: string, findId: string | null) {
  return useQuery({
    queryKey: findKeys.find(baseId, findId ?? ""),
    enabled: findId !== null,
    queryFn: () => api<FindView>(findPath(baseId, findId ?? "")),
    refetchInterval: (q) =>
      q.state.status === "error" || (q.state.data && !isLooking(q.state.data)) ? false : POLL_MS,
  });
}

/** A find's candidates with these statuses (all when empty), first 200. */
export function useCandidates(baseId: string, findId: string, statuses: readonly CandidateStatus[], live = false) {
  return useQuery({
    queryKey: findKeys.candidates(baseId, findId, statuses),
    queryFn: () =>
      api<{ candidates: FindCandidate[] }>(
        `${findPath(baseId, findId)}/candidates?limit=200${statuses.length ? `&status=${statuses.join(",")}` : ""}`,
      ).then((r) => r.candidates),
    refetchInterval: live ? POLL_MS : false,
  });
}

export const startFind = (baseId: string, body: FindBody) => api<FindView>(findsPath(baseId), { body });

export const extendFind = (baseId: string, findId: string, body: { count: number; maxCredits?: number }) =>
  api<FindView>(`${findPath(baseId, findId)}/extend`, { body });
