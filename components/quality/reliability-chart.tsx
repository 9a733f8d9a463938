import { useId } from "react";
import type { ConfidenceBucket } from "../data/types";
import { percent } from "./quality-format";

// Plot geometry in SVG units; the SVG scales to its container's width.
const W = 300;
const H = 230;
const M = { top: 10, right: 12, bottom: 38, left: 44 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;
const x = (c: number) => M.left + c * PW;
const y = (a: number) => M.top + (1 - a) * PH;
const TICKS = [0, 0.25, 0.5, 0.75, 1];
const LABELLED = new Set([0, 0.5, 1]);

const range = (b: ConfidenceBucket) => `${b.from.toFixed(1)}–${b.to.toFixed(1)}`;
const describe = (b: ConfidenceBucket) =>
  `Confidence ${range(b)}: ${b.cells} ${b.cells === 1 ? "cell" : "cells"}, ${percent(b.agreement)} agreement (mean confidence ${percent(b.confidence)})`;

/**
 * A reliability diagram: for each confidence tenth, how often reviewers agreed with the model.
 * A well-calibrated column sits on the diagonal; bars below it are overconfident.
 */
export function ReliabilityChart({
  buckets,
  label = "Reliability: agreement by confidence",
}: {
  buckets: ConfidenceBucket[];
  label?: string;
}) {
  const titleId = useId();
  const descId = useId();
  const most = Math.max(1, ...buckets.map((b) => b.cells));
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={titleId}
      aria-describedby={descId}
      className="h-auto w-full text-zinc-500 dark:text-zinc-400"
      data-testid="reliability-chart"
    >
      <title id={titleId}>{label}</title>
      <desc id={descId}>
        {buckets.length
          ? `${buckets.map(describe).join(". ")}. The diagonal is perfect calibration.`
          : "No reviewed cells yet. The diagonal is perfect calibration."}
      </desc>
      {TICKS.map((t) => (
        <g key={t} aria-hidden>
          <line
            x1={x(0)}
            x2={x(1)}
            y1={y(t)}
            y2={y(t)}
            className="stroke-zinc-200 dark:stroke-zinc-800"
            strokeWidth={1}
          />
          <line
            x1={x(t)}
            x2={x(t)}
            y1={y(0)}
            y2={y(1)}
            className="stroke-zinc-200 dark:stroke-zinc-800"
            strokeWidth={1}
          />
          {LABELLED.has(t) ? (
            <>
              <text x={x(t)} y={y(0) + 13} textAnchor="middle" fontSize={10} fill="currentColor">
                {t}
              </text>
              <text x={x(0) - 6} y={y(t) + 3.5} textAnchor="end" fontSize={10} fill="currentColor">
                {t}
              </text>
            </>
          ) : null}
        </g>
      ))}
      <line x1={x(0)} x2={x(1)} y1={y(0)} y2={y(0)} stroke="currentColor" strokeWidth={1} aria-hidden />
      <line x1={x(0)} x2={x(0)} y1={y(0)} y2={y(1)} stroke="currentColor" strokeWidth={1} aria-hidden />
      <text x={x(0.5)} y={H - 6} textAnchor="middle" fontSize={11} fill="currentColor" aria-hidden>
        Confidence
      </text>
      <text
        x={12}
        y={y(0.5)}
        textAnchor="middle"
        fontSize={11}
        fill="currentColor"
        transform={`rotate(-90 12 ${y(0.5)})`}
        aria-hidden
      >
        Agreement
      </text>
      {buckets.map((b) => (
        <g key={b.from} data-bucket={range(b)}>
          <title>{describe(b)}</title>
          {/* The bucket's extent, so a bucket where reviewers never agreed still shows. */}
          <rect
            x={x(b.from) + 1.5}
            width={Math.max(1, x(b.to) - x(b.from) - 3)}
            y={y(1)}
            height={PH}
            className="fill-zinc-100 dark:fill-zinc-800/60"
          />
          {/* More cells, more ink: a bucket of three reviews says less than one of three hundred. */}
          <rect
            x={x(b.from) + 1.5}
            width={Math.max(1, x(b.to) - x(b.from) - 3)}
            y={y(b.agreement)}
            height={Math.max(0.5, y(0) - y(b.agreement))}
            className={
              b.agreement + 0.1 < b.confidence
                ? "fill-amber-400 dark:fill-amber-500"
                : "fill-indigo-400 dark:fill-indigo-500"
            }
            fillOpacity={0.35 + 0.55 * (b.cells / most)}
          />
          <circle cx={x(b.confidence)} cy={y(b.agreement)} r={3} className="fill-zinc-900 dark:fill-zinc-100" />
        </g>
      ))}
      <line
        x1={x(0)}
        y1={y(0)}
        x2={x(1)}
        y2={y(1)}
        strokeDasharray="4 3"
        strokeWidth={1.25}
        className="stroke-emerald-600 dark:stroke-emerald-400"
        aria-hidden
      />
    </svg>
  );
}
