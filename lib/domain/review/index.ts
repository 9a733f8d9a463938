// The public face of lib/domain/review/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { reviewCells, reviewHistory } from "./actions.ts";
export { MAX_REVIEW_CELLS } from "./schemas.ts";
export { undoReview } from "./undo.ts";
