"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { ColumnView } from "../../data/types";
import { usePermissions } from "../../auth/use-permissions";
import { useToast } from "../../ui/toast";
import type { Move } from "../cells/cell-editor";
import type { PopoverTarget } from "../cells/cell-popover";
import { hasDetails } from "../cells/cell-state";
import { editorKind } from "../cells/column-kinds";
import { cellDomId, type EditState, type GridCell, type RowCallbacks } from "./grid-row";
import type { RowStore } from "../data/row-store";
import type { GridActions } from "../data/use-grid-actions";
import type { GridTable } from "./use-grid-table";

const HOVER_OPEN_MS = 450;
const HOVER_CLOSE_MS = 200;

/** Editing, the details popover, and the mouse: everything a cell does when touched. */
export function useGridInteraction(opts: {
  table: GridTable;
  store: RowStore;
  dataColumns: ColumnView[];
  actions: GridActions;
  focusGrid: () => void;
}) {
  const { table, store, dataColumns, actions, focusGrid } = opts;
  const toast = useToast();
  const [edit, setEdit] = useState<EditState | null>(null);
  const [popover, setPopover] = useState<PopoverTarget | null>(null);
  const editRef = useRef(edit);
  editRef.current = edit;
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const colById = useMemo(() => new Map(dataColumns.map((c) => [c.id, c])), [dataColumns]);
  // Without rows:write, editing, pasting and clearing are refused here with the reason, not by a 403.
  const editDenied = usePermissions().reason("rows:write");
  const mayWrite = useCallback(() => {
    if (editDenied) toast.info(editDenied);
    return !editDenied;
  }, [editDenied, toast]);

  const cellValueOf = useCallback(
    (rowId: string, column: ColumnView) => store.get(rowId)?.cells[column.name]?.value ?? "",
    [store],
  );

  /** After an edit, give focus back to the grid unless the user has put it somewhere else. */
  const restoreFocus = useCallback(() => {
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (!active || active === document.body) focusGrid();
    });
  }, [focusGrid]);

  const startEdit = useCallback(
    (rowId: string, columnId: string, initial?: string) => {
      const column = colById.get(columnId);
      if (!column || !store.has(rowId) || !mayWrite()) return;
      if (column.fill) {
        toast.info(`“${column.name}” is a formula column: its value is computed from the row.`);
        return;
      }
      setPopover(null);
      const current = cellValueOf(rowId, column);
      const kind = editorKind(column);
      if (kind === "checkbox") {
        void actions
          .updateCell(rowId, column, current === "true" ? "false" : "true")
          .then((err) => err && toast.error(err));
        return;
      }
      // Select and date editors start from the current value; typing into them is not replacing.
      const start = initial !== undefined && kind !== "select" && kind !== "date" ? initial : current;
      flushSync(() => setEdit({ rowId, columnId, initial: start, error: null, saving: false }));
    },
    [colById, store, cellValueOf, actions, toast, mayWrite],
  );

  const cancelEdit = useCallback(() => {
    setEdit(null);
    restoreFocus();
  }, [restoreFocus]);

  const commitEdit = useCallback(
    async (value: string, move: Move) => {
      const e = editRef.current;
      const column = e && colById.get(e.columnId);
      if (!e || !column) return;
      const finish = () => {
        setEdit(null);
        if (move) {
          focusGrid();
          table.moveCellSelection(move);
        } else restoreFocus();
      };
      if (value === cellValueOf(e.rowId, column)) return finish();
      setEdit({ ...e, saving: true, error: null });
      const error = await actions.updateCell(e.rowId, column, value);
      const same = (x: EditState | null) => x && x.rowId === e.rowId && x.columnId === e.columnId;
      if (error) setEdit((x) => (same(x) ? { ...x!, saving: false, error } : x));
      else if (same(editRef.current)) finish();
    },
    [colById, cellValueOf, actions, table, focusGrid, restoreFocus],
  );

  const openPopover = useCallback(
    (rowId: string, columnId: string, pinned: boolean, takeFocus: boolean): boolean => {
      const column = colById.get(columnId);
      const el = document.getElementById(cellDomId(rowId, columnId));
      if (!column || !el || !hasDetails(store.get(rowId)?.cells[column.name])) return false;
      const r = el.getBoundingClientRect();
      setPopover({
        rowId,
        columnId,
        pinned,
        takeFocus,
        rect: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
      });
      return true;
    },
    [colById, store],
  );

  /** Hover never replaces a popover the user opened on purpose. */
  const openOnHover = useCallback((rowId: string, columnId: string) => {
    const el = document.getElementById(cellDomId(rowId, columnId));
    if (!el) return;
    const r = el.getBoundingClientRect();
    const rect = { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    setPopover((p) => (p?.pinned ? p : { rowId, columnId, pinned: false, takeFocus: false, rect }));
  }, []);

  const scheduleClose = useCallback(() => {
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setPopover((p) => (p?.pinned ? p : null)), HOVER_CLOSE_MS);
  }, []);

  useEffect(
    () => () => {
      clearTimeout(hoverTimer.current);
      clearTimeout(closeTimer.current);
    },
    [],
  );

  const callbacks: RowCallbacks = useMemo(
    () => ({
      onCellMouseDown(e: React.MouseEvent, cell: GridCell) {
        if (e.button !== 0) return;
        // Keep the browser from selecting text or moving focus; the grid takes focus itself.
        e.preventDefault();
        cell.getSelectionStartHandler()(e);
        focusGrid();
      },
      onCellMouseEnter(e: React.MouseEvent, cell: GridCell, rowId: string, columnId: string) {
        cell.getSelectionExtendHandler()(e);
        clearTimeout(hoverTimer.current);
        if (e.buttons) return;
        const column = colById.get(columnId);
        if (!column || !hasDetails(store.get(rowId)?.cells[column.name])) return scheduleClose();
        clearTimeout(closeTimer.current);
        hoverTimer.current = setTimeout(() => {
          if (!editRef.current) openOnHover(rowId, columnId);
        }, HOVER_OPEN_MS);
      },
      onCellMouseLeave() {
        clearTimeout(hoverTimer.current);
        scheduleClose();
      },
      onCellClick(e: React.MouseEvent, rowId: string, columnId: string) {
        if (e.shiftKey || e.metaKey || e.ctrlKey || editRef.current) return;
        clearTimeout(hoverTimer.current);
        openPopover(rowId, columnId, true, false);
      },
      onCellDoubleClick(rowId: string, columnId: string) {
        startEdit(rowId, columnId);
      },
      commitEdit: (value: string, move: Move) => void commitEdit(value, move),
      cancelEdit,
    }),
    [colById, store, focusGrid, scheduleClose, openPopover, openOnHover, startEdit, commitEdit, cancelEdit],
  );

  const closePopover = useCallback(
    (refocus: boolean) => {
      setPopover(null);
      if (refocus) focusGrid();
    },
    [focusGrid],
  );

  const popoverHandlers = useMemo(
    () => ({ onPointerEnter: () => clearTimeout(closeTimer.current), onPointerLeave: scheduleClose }),
    [scheduleClose],
  );

  return {
    edit,
    popover,
    setPopover,
    startEdit,
    mayWrite,
    readOnly: Boolean(editDenied),
    openPopover,
    closePopover,
    callbacks,
    popoverHandlers,
  };
}
