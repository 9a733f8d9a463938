// The public face of lib/domain/runs/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { cancelRun, pauseRun, resumeRun } from "./control.ts";
export { createRun, extendRun, getRun, listRuns, type RunPolicy, startRun } from "./record.ts";
export { assertMayQueue } from "./spend.ts";
export { RUN_STATUSES, type RunStatus, type RunTrigger, type RunView } from "./states.ts";
export { type CellScope, estimateRun, type RunOrigin, runCells } from "./request.ts";
