"use client";
import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, ApiError, basePath, errorMessage } from "../data/api";
import { keys, useBaseSummary, useRowCount, useStructure } from "../data/queries";
import type { BaseSummary, ColumnView } from "../data/types";
import { AppHeader } from "../app-header";
import { Skeleton } from "../ui/skeleton";
import { useToast } from "../ui/toast";
import { thresholdOf } from "./cells/cell-state";
import { ColumnEditor } from "./dialogs/column-editor";
import { DeleteColumnDialog } from "./dialogs/delete-column-dialog";
import { DeleteRowsDialog } from "./dialogs/delete-rows-dialog";
import { ConfirmRunDialog, RunDialog } from "./dialogs/run-dialog";
import { BaseNotFound, EmptyRows, GridSkeleton } from "./table/empty-states";
import { FilterBar } from "./query/filter-bar";
import { narrows, needsReviewFilter, queryRequest } from "./query/query-state";
import { ReviewPanel } from "./review/review-panel";
import { RunBar } from "./run-bar";
import { Grid } from "./table/grid";
import { Toolbar } from "./toolbar";
import { ImportDialog } from "../imports/import-dialog";
import { QualityPanel } from "../quality/quality-panel";
import { useBaseRows } from "./data/use-base-rows";
import { useChangedMarkSince, useGridQuery } from "./query/use-grid-query";
import { useThrottledInvalidate } from "./data/use-throttled-invalidate";
import { useGridActions, type RunRequest } from "./data/use-grid-actions";
import { selectedCells } from "./table/keyboard-and-selection";
import { useGridTable } from "./table/use-grid-table";

const EMPTY: ColumnView[] = [];

type Dialog =
  | { kind: "column"; column: ColumnView | null }
  | { kind: "delete-column"; column: ColumnView }
  | { kind: "run"; title: string; request: RunRequest }
  | { kind: "delete-rows"; rowIds: string[] }
  | { kind: "confirm-run"; cells: number; answer: (a: { maxCredits?: number } | null) => void }
  | null;

type BaseViewProps = { baseId: string; side?: React.ReactNode; maxScrollHeight: number };

/**
 * One base: toolbar, grid and its dialogs. `side` is where a side panel (the chat) docks next
 * to the grid. `maxScrollHeight` is the tallest grid body laid out before its scroll is scaled.
 */
export function BaseView({ baseId, side, maxScrollHeight }: BaseViewProps) {
  const summary = useBaseSummary(baseId);
  const structure = useStructure(baseId);
  const columns = structure.data?.sheetColumns ?? EMPTY;
  const threshold = thresholdOf(summary.data?.settings);
  const [query, setQuery] = useGridQuery();
  const changedSince = useChangedMarkSince(query.filter);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [importing, setImporting] = useState(false);
  const [qualityOf, setQualityOf] = useState<string | null>(null);
  const qc = useQueryClient();
  const toast = useToast();

  // Review mode's filter names the AI columns, so its rows wait for the structure.
  const request = useMemo(
    () => (query.review && !structure.data ? undefined : queryRequest(query, columns)),
    [query, columns, structure.data],
  );
  const rows = useBaseRows(baseId, structure.data?.sheetColumns, request);
  const table = useGridTable(rows.store, rows.all, columns);
  const reviewCount = useRowCount(
    baseId,
    keys.reviewCount(baseId),
    useMemo(() => needsReviewFilter(columns), [columns]),
  );
  useThrottledInvalidate(rows.store, [keys.reviewCount(baseId), keys.base(baseId), keys.qualities(baseId)]);
  const focusCell = useCallback(
    (t: { rowId: string; columnId: string }) => table.setFocusedCell(t.rowId, t.columnId),
    [table],
  );
  const confirmRun = useCallback(
    (cells: number) =>
      new Promise<{ maxCredits?: number } | null>((answer) => setDialog({ kind: "confirm-run", cells, answer })),
    [],
  );
  const actions = useGridActions(baseId, rows.loader, columns, confirmRun);

  // Selection is kept by id; rows deleted elsewhere drop out of it here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: rows.all changes when the store (mutated in place) does.
  const selectedRowIds = useMemo(
    () => Object.keys(table.state.rowSelection).filter((id) => table.state.rowSelection[id] && rows.store.has(id)),
    [table.state.rowSelection, rows.store, rows.all],
  );
  const qualityColumn = columns.find((c) => c.id === qualityOf);
  const primaryName = (columns.find((c) => c.isPrimary) ?? columns[0])?.name;
  const rowLabel = useCallback(
    (rowId: string) => (primaryName ? rows.store.get(rowId)?.cells[primaryName]?.value || undefined : undefined),
    [rows.store, primaryName],
  );
  const aiIds = useMemo(() => new Set(columns.filter(isGenerated).map((c) => c.id)), [columns]);

  const rerunRequest = (): RunRequest | null => {
    if (selectedRowIds.length) return { rowIds: selectedRowIds };
    const sel = selectedCells(table, columns);
    const columnIds = sel.columns.filter((c) => aiIds.has(c.id)).map((c) => c.id);
    return sel.rowIds.length && columnIds.length ? { rowIds: sel.rowIds, columnIds } : null;
  };
  const rerunHint = aiIds.size === 0 ? "This base has no AI columns" : undefined;

  async function setThreshold(value: number) {
    try {
      const updated = await api<BaseSummary>(basePath(baseId), {
        method: "PATCH",
        body: { settings: { lowConfidenceThreshold: value } },
      });
      qc.setQueryData(keys.base(baseId), updated);
    } catch (e) {
      toast.error(errorMessage(e));
    }
  }

  async function estimateColumn(column: ColumnView) {
    try {
      const e = await actions.estimate({ columnIds: [column.id] });
      toast.info(
        `Re-running “${column.name}”: ${e.cells.toLocaleString()} cells, ${e.credits.toLocaleString()} credits${e.balance === null ? "" : ` (balance ${e.balance.toLocaleString()})`}.`,
      );
    } catch (err) {
      toast.error(errorMessage(err));
    }
  }

  const notFound =
    (summary.error instanceof ApiError && summary.error.status === 404) ||
    (structure.error instanceof ApiError && structure.error.status === 404);
  const narrowed = narrows(query);
  const matching = narrowed ? (rows.load.total ?? rows.all.length) : (summary.data?.rowCount ?? 0);
  const loading =
    rows.load.phase === "loading" ? { loaded: rows.load.loaded, expected: Math.max(matching, rows.load.loaded) } : null;
  const name = summary.data?.name ?? structure.data?.sheet.name;

  return (
    <div className="flex h-dvh flex-col">
      <AppHeader>
        <Link
          href="/"
          className="rounded text-zinc-600 hover:text-zinc-900 hover:underline dark:text-zinc-400 dark:hover:text-zinc-100"
        >
          Bases
        </Link>
        <span aria-hidden className="text-zinc-400">
          /
        </span>
        <h1 className="truncate font-semibold">
          {name ?? (notFound ? "Not found" : <Skeleton className="h-4 w-40" />)}
        </h1>
        <span
          className="hidden rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600 sm:inline dark:bg-zinc-800 dark:text-zinc-400"
          title="Base id (used in API paths)"
        >
          {baseId}
        </span>
      </AppHeader>
      {notFound ? (
        <BaseNotFound />
      ) : (
        <div className="flex min-h-0 flex-1">
          <main className="flex min-w-0 flex-1 flex-col">
            <Toolbar
              baseId={baseId}
              onAddRow={() =>
                void actions.addRows([{}]).then((ids) => {
                  if (ids[0] && columns[0]) requestAnimationFrame(() => table.setFocusedCell(ids[0], columns[0].id));
                })
              }
              onAddColumn={() => setDialog({ kind: "column", column: null })}
              onImport={() => setImporting(true)}
              selectedRows={selectedRowIds.length}
              onDeleteRows={() => setDialog({ kind: "delete-rows", rowIds: selectedRowIds })}
              runAll={{
                enabled: !rerunHint,
                onClick: () => setDialog({ kind: "run", title: "Run every AI cell?", request: {} }),
              }}
              rerun={{
                enabled: !rerunHint,
                hint: rerunHint,
                onClick: () => {
                  const request = rerunRequest();
                  if (!request) return toast.info("Select rows, or AI cells, to re-run.");
                  setDialog({ kind: "run", title: "Re-run the selection?", request });
                },
              }}
              reviewOnly={query.review}
              reviewCount={reviewCount.data ?? null}
              onToggleReview={() => setQuery({ ...query, review: !query.review })}
              threshold={threshold}
              onThreshold={(v) => void setThreshold(v)}
              rows={rows.all.length}
              of={narrowed ? (summary.data?.rowCount ?? null) : null}
              loading={loading}
              live={rows.live}
            />
            <FilterBar baseId={baseId} columns={columns} query={query} onChange={setQuery} />
            <RunBar baseId={baseId} />
            <div className="min-h-0 flex-1">
              {structure.isPending ? (
                <GridSkeleton />
              ) : (
                <Grid
                  label={`${name ?? "Base"} table`}
                  table={table}
                  store={rows.store}
                  dataColumns={columns}
                  expectedRows={loading ? loading.expected : 0}
                  busy={rows.load.phase === "loading"}
                  onViewport={rows.onViewport}
                  threshold={threshold}
                  changedSince={changedSince}
                  maxScrollHeight={maxScrollHeight}
                  actions={actions}
                  columnActions={{
                    edit: (column) => setDialog({ kind: "column", column }),
                    rerun: (column) =>
                      setDialog({
                        kind: "run",
                        title: `Re-run “${column.name}”?`,
                        request: { columnIds: [column.id] },
                      }),
                    estimate: (column) => void estimateColumn(column),
                    quality: (column) => setQualityOf(column.id),
                    remove: (column) => setDialog({ kind: "delete-column", column }),
                  }}
                  empty={
                    rows.load.phase === "done" ? <EmptyRows reviewOnly={query.review} narrowed={narrowed} /> : null
                  }
                />
              )}
            </div>
          </main>
          {query.review ? (
            <ReviewPanel
              baseId={baseId}
              store={rows.store}
              loader={rows.loader}
              handles={rows.all}
              columns={columns}
              threshold={threshold}
              onFocusCell={focusCell}
              onExit={() => setQuery({ ...query, review: false })}
            />
          ) : null}
          {qualityColumn ? (
            <QualityPanel
              key={qualityColumn.id}
              baseId={baseId}
              column={qualityColumn}
              rowLabel={rowLabel}
              onClose={() => setQualityOf(null)}
            />
          ) : null}
          {side}
        </div>
      )}
      <ImportDialog open={importing} onClose={() => setImporting(false)} baseId={baseId} />
      {dialog?.kind === "column" ? (
        <ColumnEditor baseId={baseId} column={dialog.column} columns={columns} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === "delete-column" ? (
        <DeleteColumnDialog baseId={baseId} column={dialog.column} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === "run" ? (
        <RunDialog title={dialog.title} request={dialog.request} actions={actions} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === "confirm-run" ? (
        <ConfirmRunDialog
          cells={dialog.cells}
          onAnswer={(a) => {
            setDialog(null);
            dialog.answer(a);
          }}
        />
      ) : null}
      {dialog?.kind === "delete-rows" ? (
        <DeleteRowsDialog
          count={dialog.rowIds.length}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            if (await actions.deleteRows(dialog.rowIds)) table.resetRowSelection(true);
          }}
        />
      ) : null}
    </div>
  );
}
