"use client";
import { useQuery } from "@tanstack/react-query";
import { api, basePath } from "../data/api";
import type { ScheduleView } from "./schedule-form";

export const schedulesKey = (baseId: string) => ["schedules", baseId] as const;

export const schedulePath = (baseId: string, scheduleId?: string) =>
  `${basePath(baseId)}/schedules${scheduleId ? `/${encodeURIComponent(scheduleId)}` : ""}`;

/** The base's schedules, oldest first, each with its next run times. */
export function useSchedules(baseId: string, enabled = true) {
  return useQuery({
    queryKey: schedulesKey(baseId),
    enabled,
    queryFn: () => api<{ schedules: ScheduleView[] }>(schedulePath(baseId)).then((r) => r.schedules),
  });
}
