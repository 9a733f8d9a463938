// The public face of lib/domain/evaluations/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { answersMatch } from "./compare.ts";
export { applyEvaluation, createEvaluation, estimateEvaluation, type EvaluationPolicy } from "./evaluations.ts";
export {
  cancelItemsOfRun,
  type ClaimedItem,
  claimItems,
  completeItem,
  failItem,
  renewItemLeases,
  retryItem,
  returnItemLeases,
} from "./items.ts";
export { evaluatedColumn, type EvaluationSettings, MAX_EVALUATION_ROWS } from "./settings.ts";
export { evaluationView, listEvaluations } from "./view.ts";
