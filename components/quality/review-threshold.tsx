"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, columnPath, errorMessage } from "../data/api";
import { keys } from "../data/queries";
import type { ColumnQuality, ColumnView } from "../data/types";
import { usePermissions } from "../auth/use-permissions";
import { Button } from "../ui/button";
import { plural } from "../ui/format";
import { useToast } from "../ui/toast";
import { decimal } from "./quality-format";

/** Reviews it takes before the server suggests a threshold (the API's calibrated flag). */
const MIN_REVIEWS = 30;

/** The column's review threshold, and the one its reviews suggest, applied with one click. */
export function ReviewThreshold({
  baseId,
  column,
  quality,
}: {
  baseId: string;
  column: ColumnView;
  quality: ColumnQuality;
}) {
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const toast = useToast();
  const perms = usePermissions();
  const suggested = quality.suggestedReviewThreshold;
  const same = suggested !== null && Math.abs(suggested - quality.reviewThreshold) < 0.005;

  async function apply(threshold: number) {
    setBusy(true);
    try {
      // PATCH replaces columnOptions whole: the model, autoRun and select options ride along.
      const columnOptions = { ...column.columnOptions, reviewThreshold: threshold };
      await api(columnPath(baseId, column.id), { method: "PATCH", body: { columnOptions } });
      await Promise.all([
        qc.invalidateQueries({ queryKey: keys.structure(baseId) }),
        qc.invalidateQueries({ queryKey: keys.quality(baseId, column.id) }),
        qc.invalidateQueries({ queryKey: keys.reviewCount(baseId) }),
      ]);
      toast.success(`“${column.name}” now asks for review below ${decimal(threshold)}.`);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="quality-threshold" className="space-y-2 px-4 py-3">
      <h3
        id="quality-threshold"
        className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400"
      >
        Review threshold
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1">
        <dt className="text-zinc-600 dark:text-zinc-400">Current</dt>
        <dd className="font-medium tabular-nums" data-testid="current-threshold">
          {decimal(quality.reviewThreshold)}
          <span className="font-normal text-zinc-500 dark:text-zinc-400">
            {" "}
            · by {quality.reviewBy === "calibrated" ? "calibrated" : "model"} confidence
          </span>
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Suggested</dt>
        <dd className="font-medium tabular-nums" data-testid="suggested-threshold">
          {suggested === null ? (
            <span className="font-normal text-zinc-600 dark:text-zinc-400">
              after {plural(Math.max(0, MIN_REVIEWS - quality.reviewed), "more review")}
            </span>
          ) : (
            decimal(suggested)
          )}
        </dd>
      </dl>
      {suggested !== null ? (
        <div className="flex items-center gap-2">
          <p className="flex-1 text-xs text-zinc-600 dark:text-zinc-400">
            {same
              ? "The column already uses the suggested threshold."
              : `Cells under ${decimal(suggested)} confidence would need review.`}
          </p>
          <Button
            size="sm"
            variant="primary"
            disabled={busy || same}
            onClick={() => void apply(suggested)}
            deniedReason={perms.reason("schema:write", "change columns")}
          >
            Apply threshold
          </Button>
        </div>
      ) : null}
    </section>
  );
}
