// A run's vocabulary: its triggers, its statuses and the transitions between them, and the view the
// API shows. No statements: the endpoint schemas read it without loading the runs table's owner.

export const RUN_TRIGGERS = [
  "add-rows",
  "update-rows",
  "run",
  "import",
  "assistant",
  "evaluation",
  "find",
  "schedule",
] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const RUN_STATUSES = ["running", "paused", "done", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run's status machine, declared once: every status change (record.ts) names one of these. */
export const RUN_TRANSITIONS = {
  pause: { from: ["running"], to: "paused" },
  /** The run reached its credit cap. */
  budget: { from: ["running"], to: "paused" },
  /** The API key that started it spent its daily credit cap. */
  key_cap: { from: ["running"], to: "paused" },
  resume: { from: ["paused"], to: "running" },
  cancel: { from: ["running", "paused"], to: "cancelled" },
  /** None of its cells is pending or running any more. */
  finish: { from: ["running", "paused"], to: "done" },
} as const satisfies Record<string, { from: readonly RunStatus[]; to: RunStatus }>;
export type RunTransition = keyof typeof RUN_TRANSITIONS;

/** Why a run is paused, by the transition that paused it. */
export const PAUSED_REASON: Partial<Record<RunTransition, string>> = {
  budget: "budget",
  key_cap: "key_cap",
  pause: "user",
};

export type RunCounts = {
  pending: number;
  running: number;
  done: number;
  error: number;
  cancelled: number;
  /** Cells whose run condition left their row out: finished, never charged. */
  skipped: number;
  not_found: number;
};

export type RunView = {
  id: string;
  baseId: string;
  trigger: string;
  status: RunStatus;
  counts: RunCounts;
  creditsSpent: number;
  maxCredits: number | null;
  estimatedCredits: number;
  createdAt: string;
  finishedAt: string | null;
  pausedReason: string | null;
  /** The schedule whose execution this run is; null for a run a request started. */
  scheduleId: string | null;
};
