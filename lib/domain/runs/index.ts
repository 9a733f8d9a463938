// The public face of lib/domain/runs/: the only module of it that other layers import.
export { cancelRun, pauseRun, resumeRun } from "./control.ts";
export { getRun, listRuns } from "./record.ts";
export { estimateRun, runCells } from "./request.ts";
