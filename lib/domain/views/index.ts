// The public face of lib/domain/views/: the only module of it that other layers import.
export { createView, deleteView, getView, listViews, loadView, updateView } from "./views.ts";
