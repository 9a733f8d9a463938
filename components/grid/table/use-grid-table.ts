"use client";
import { useMemo, useState } from "react";
import {
  cellSelectionFeature,
  columnSizingFeature,
  createColumnHelper,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type CellSelectionState,
  type RowSelectionState,
} from "@tanstack/react-table";
import type { ColumnView } from "../../data/types";
import { defaultWidth } from "../cells/column-kinds";
import type { RowHandle, RowStore } from "../data/row-store";

export const gridFeatures = tableFeatures({ columnSizingFeature, rowSelectionFeature, cellSelectionFeature });
export type GridFeatures = typeof gridFeatures;

const helper = createColumnHelper<GridFeatures, RowHandle>();

/** The leading column: row number and the row's checkbox. It takes no part in cell selection. */
export const SELECT_COLUMN_ID = "__select";
export const GUTTER_WIDTH = 80;

/**
 * The table model: columns with their sizes, row selection (checkboxes) and cell selection
 * (the focused cell and rectangular ranges). Rows are handles into the RowStore, so a cell
 * value changing never rebuilds the model.
 */
export function useGridTable(store: RowStore, handles: RowHandle[], columns: ColumnView[]) {
  const columnDefs = useMemo(
    () =>
      helper.columns([
        helper.display({ id: SELECT_COLUMN_ID, size: GUTTER_WIDTH, enableCellSelection: false }),
        ...columns.map((c) =>
          helper.accessor((h: RowHandle) => store.get(h.id)?.cells[c.name]?.value ?? "", {
            id: c.id,
            header: c.name,
            size: defaultWidth(c),
          }),
        ),
      ]),
    [columns, store],
  );
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [cellSelection, setCellSelection] = useState<CellSelectionState>([]);
  return useTable(
    {
      features: gridFeatures,
      columns: columnDefs,
      data: handles,
      getRowId: (h) => h.id,
      state: { rowSelection, cellSelection },
      onRowSelectionChange: setRowSelection,
      onCellSelectionChange: setCellSelection,
      // Ranges are anchored to row ids, so live updates and new rows must not clear them.
      autoResetCellSelection: false,
      enableRowSelection: true,
    },
    (s) => ({ rowSelection: s.rowSelection, cellSelection: s.cellSelection }),
  );
}

export type GridTable = ReturnType<typeof useGridTable>;
