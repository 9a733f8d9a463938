// The public face of lib/domain/views/: the only module of it that other layers and aggregates import
// (architecture.test.ts names the few statement modules a lower aggregate composes instead).
export { createView, deleteView, getView, listViews, loadView, updateView } from "./views.ts";
