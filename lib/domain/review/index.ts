// The public face of lib/domain/review/: the only module of it that other layers import.
export { MAX_REVIEW_CELLS, reviewCells, reviewHistory } from "./actions.ts";
export { undoReview } from "./undo.ts";
