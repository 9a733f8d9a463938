"use client";
import { isGenerated } from "@/lib/domain/fill/kinds.ts";
import type { VirtualItem } from "@tanstack/react-virtual";
import type { ColumnView } from "../../data/types";
import { usePermissions } from "../../auth/use-permissions";
import { Menu, type MenuItem } from "../../ui/menu";
import {
  ChartIcon,
  CoinsIcon,
  DotsIcon,
  KeyIcon,
  PencilIcon,
  RefreshIcon,
  SparkleIcon,
  TrashIcon,
  FunctionIcon,
} from "../../ui/icons";
import { TypeIcon, typeLabel } from "../cells/column-kinds";
import { GUTTER_WIDTH } from "./use-grid-table";

export const HEADER_HEIGHT = 38;

export interface ColumnMenuActions {
  edit(column: ColumnView): void;
  rerun(column: ColumnView): void;
  estimate(column: ColumnView): void;
  quality(column: ColumnView): void;
  remove(column: ColumnView): void;
}

interface Props {
  columns: VirtualItem[];
  dataColumns: ColumnView[];
  totalWidth: number;
  allSelected: boolean;
  someSelected: boolean;
  onToggleAll: () => void;
  actions: ColumnMenuActions;
}

export function GridHeader({
  columns,
  dataColumns,
  totalWidth,
  allSelected,
  someSelected,
  onToggleAll,
  actions,
}: Props) {
  return (
    <div role="rowgroup" className="sticky top-0 z-20" style={{ width: totalWidth }}>
      <div role="row" aria-rowindex={1} className="flex" style={{ height: HEADER_HEIGHT, width: totalWidth }}>
        <div
          role="columnheader"
          aria-colindex={1}
          className="sticky left-0 z-10 flex h-full shrink-0 items-center justify-end border-r border-b border-zinc-200 bg-zinc-100 px-2 dark:border-zinc-800 dark:bg-zinc-900"
          style={{ width: GUTTER_WIDTH }}
        >
          <input
            type="checkbox"
            aria-label="Select all rows"
            checked={allSelected}
            ref={(el) => {
              if (el) el.indeterminate = someSelected && !allSelected;
            }}
            onChange={onToggleAll}
            className="size-3.5 accent-indigo-600"
          />
        </div>
        {columns.map((vc, i) => {
          const column = dataColumns[vc.index];
          if (!column) return null;
          return (
            <HeaderCell
              key={column.id}
              column={column}
              colIndex={vc.index + 2}
              style={{ width: vc.size, marginLeft: i === 0 ? vc.start - GUTTER_WIDTH : undefined }}
              actions={actions}
            />
          );
        })}
      </div>
    </div>
  );
}

function HeaderCell({
  column,
  colIndex,
  style,
  actions,
}: {
  column: ColumnView;
  colIndex: number;
  style: React.CSSProperties;
  actions: ColumnMenuActions;
}) {
  const perms = usePermissions();
  const runHint = perms.reason("runs:write") ?? (!isGenerated(column) ? "Only generated columns run" : undefined);
  const estimateHint = !isGenerated(column) ? "Only generated columns run" : undefined;
  const editHint = perms.reason("schema:write", "edit columns");
  const deleteHint = perms.reason("schema:write", "delete columns");
  const items: MenuItem[] = [
    {
      label: "Edit column…",
      icon: <PencilIcon />,
      onSelect: () => actions.edit(column),
      disabled: Boolean(editHint),
      hint: editHint,
    },
    {
      label: "Re-run column…",
      icon: <RefreshIcon />,
      onSelect: () => actions.rerun(column),
      disabled: Boolean(runHint),
      hint: runHint,
    },
    {
      label: "Estimate re-run cost",
      icon: <CoinsIcon />,
      onSelect: () => actions.estimate(column),
      disabled: Boolean(estimateHint),
      hint: estimateHint,
    },
    {
      label: "Quality…",
      icon: <ChartIcon />,
      onSelect: () => actions.quality(column),
      disabled: !column.isAiEnabled,
      hint: column.isAiEnabled ? undefined : "Only AI columns are measured",
    },
    {
      label: "Delete column…",
      icon: <TrashIcon />,
      onSelect: () => actions.remove(column),
      danger: true,
      disabled: Boolean(deleteHint),
      hint: deleteHint,
    },
  ];
  return (
    <div
      role="columnheader"
      aria-colindex={colIndex}
      data-column={column.name}
      title={column.instructions || undefined}
      onDoubleClick={() => actions.edit(column)}
      className="group/header flex h-full shrink-0 items-center gap-1.5 border-r border-b border-zinc-200 bg-zinc-100 pr-1 pl-2 text-[13px] font-medium text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200"
      style={style}
    >
      <span className="text-zinc-500 dark:text-zinc-400" title={typeLabel(column.type)}>
        <TypeIcon type={column.type} />
        <span className="sr-only">{typeLabel(column.type)} column:</span>
      </span>
      <span className="min-w-0 flex-1 truncate">{column.name}</span>
      {column.isPrimary ? (
        <KeyIcon label="Primary column" className="shrink-0 text-amber-600 dark:text-amber-400" />
      ) : null}
      {column.isAiEnabled ? (
        <span className="inline-flex shrink-0 items-center gap-0.5 rounded-full bg-violet-100 px-1.5 py-px text-[10px] font-semibold tracking-wide text-violet-800 dark:bg-violet-900/70 dark:text-violet-200">
          <SparkleIcon className="text-[9px]" />
          AI
        </span>
      ) : null}
      {column.fill ? (
        <span
          title={
            column.fill.kind === "formula"
              ? `Formula: ${column.fill.expression}`
              : column.fill.kind === "http"
                ? `HTTP: ${column.fill.request.method} ${column.fill.request.url}`
                : `Waterfall of ${column.fill.steps.length} steps`
          }
          className="inline-flex shrink-0 items-center gap-0.5 rounded-full bg-sky-100 px-1.5 py-px text-[10px] font-semibold tracking-wide text-sky-800 dark:bg-sky-900/70 dark:text-sky-200"
        >
          {column.fill.kind === "formula" ? <FunctionIcon className="text-[9px]" /> : null}
          {{ formula: "Formula", http: "HTTP", waterfall: "Waterfall" }[column.fill.kind]}
        </span>
      ) : null}
      <Menu
        label={`Column menu for ${column.name}`}
        items={items}
        className="grid size-6 shrink-0 place-items-center rounded text-zinc-500 opacity-70 group-hover/header:opacity-100 hover:bg-zinc-200 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-indigo-500 aria-expanded:bg-zinc-200 aria-expanded:opacity-100 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:aria-expanded:bg-zinc-800"
      >
        <DotsIcon />
      </Menu>
    </div>
  );
}
