// The public face of lib/domain/schedules/ (docs/monitors.md): what the API, MCP, the scheduler and
// the webhook outbox use.
export * from "./schemas.ts";
export { checkCron, checkTimezone, nextRunAt, nextRunTimes, parseEvery, type Cadence } from "./cadence.ts";
export {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  updateSchedule,
  type ScheduleView,
} from "./store.ts";
export {
  dueSchedules,
  earliestTick,
  recordTickError,
  runTick,
  triggerSchedule,
  type Execution,
  type SchedulePolicies,
} from "./execute.ts";
export { scheduleCompletion, type ScheduleCompletion, type ScheduleCounts } from "./completion.ts";
