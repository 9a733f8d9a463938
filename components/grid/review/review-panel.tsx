"use client";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { usePermissions } from "../../auth/use-permissions";
import { api, basePath, errorMessage } from "../../data/api";
import type { CellStatus, ColumnView } from "../../data/types";
import { Button } from "../../ui/button";
import { CheckIcon, PencilIcon, RefreshIcon } from "../../ui/icons";
import { formatCount, plural } from "../../ui/format";
import { useToast } from "../../ui/toast";
import { CellDetails, StatusBadge } from "../cells/cell-details";
import type { RowLoader } from "../data/row-loader";
import type { RowHandle, RowStore } from "../data/row-store";
import { useReviewWalker, type ReviewTarget } from "./use-review-walker";

type Action = "accept" | "edit" | "rerun";

interface ReviewAnswer {
  cells: { rowId: string; columnId: string; actionId: string; value: string; status: CellStatus; verified: boolean }[];
  errors: { message: string }[];
}

const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
/** Enter on a button or a link is that control's own. */
const isControl = (el: EventTarget | null) => el instanceof HTMLElement && ["BUTTON", "A"].includes(el.tagName);

/**
 * Review mode: walks the cells that need review, one at a time, beside the grid. Enter accepts,
 * e edits, r re-runs, j and k move, u undoes the last accept or edit.
 */
export function ReviewPanel({
  baseId,
  store,
  loader,
  handles,
  columns,
  threshold,
  onFocusCell,
  onExit,
}: {
  baseId: string;
  store: RowStore;
  loader: RowLoader | null;
  handles: RowHandle[];
  columns: ColumnView[];
  threshold: number;
  onFocusCell: (t: ReviewTarget) => void;
  onExit: () => void;
}) {
  const toast = useToast();
  const perms = usePermissions();
  const denied = perms.reason("rows:write", "review cells");
  // Re-running queues the AI cell, which spends credits: runs:write too.
  const rerunDenied = denied ?? perms.reason("runs:write");
  const walker = useReviewWalker(store, handles, columns);
  const { current } = walker;
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lastAction = useRef<{ id: string; target: ReviewTarget } | null>(null);
  const [canUndo, setCanUndo] = useState(false);
  const panel = useRef<HTMLElement>(null);
  // The review keys work at once: focus leaves the toggle that opened the panel.
  useEffect(() => panel.current?.focus(), []);
  const column = columns.find((c) => c.id === current?.columnId);
  const subscribe = useCallback(
    (fn: () => void) => (current ? store.subscribeRow(current.rowId, fn) : () => {}),
    [store, current],
  );
  const record = useSyncExternalStore(
    subscribe,
    () => (current ? store.get(current.rowId) : undefined),
    () => undefined,
  );
  const cell = column ? record?.cells[column.name] : undefined;
  const primary = columns.find((c) => c.isPrimary) ?? columns[0];
  const rowLabel =
    (primary && record?.cells[primary.name]?.value) || `Row ${handles.findIndex((h) => h.id === current?.rowId) + 1}`;

  // The grid follows the cell under review. Keyed by the cell, not by the callback, whose identity
  // changes with every grid render (focusing a cell re-renders the grid).
  const focusCell = useRef(onFocusCell);
  focusCell.current = onFocusCell;
  useEffect(() => {
    if (current) focusCell.current(current);
  }, [current]);

  const act = useCallback(
    async (action: Action, value?: string) => {
      if (!current || !column || busy) return;
      const refused = action === "rerun" ? rerunDenied : denied;
      if (refused) return toast.info(refused);
      const next = walker.neighbour(1);
      setBusy(true);
      try {
        const answer = await api<ReviewAnswer>(`${basePath(baseId)}/review`, {
          body: { cells: [{ ...current, action, ...(action === "edit" ? { value } : {}) }] },
        });
        if (answer.errors.length) return toast.error(answer.errors[0].message);
        const done = answer.cells[0];
        lastAction.current = action === "rerun" ? null : { id: done.actionId, target: current };
        setCanUndo(action !== "rerun");
        // The cell as the server answered; the rest of its state (needsReview, metadata) comes
        // with its row, read again.
        loader?.patchCell(current.rowId, column.name, {
          value: done.value,
          status: done.status,
          verified: done.verified,
        });
        loader?.refresh([current.rowId]);
        setEditing(null);
        if (next) walker.choose(next);
      } catch (e) {
        toast.error(errorMessage(e));
      } finally {
        setBusy(false);
      }
    },
    [current, column, busy, walker, baseId, loader, toast, denied, rerunDenied],
  );

  const undo = useCallback(async () => {
    const last = lastAction.current;
    if (!last || busy) return;
    setBusy(true);
    try {
      await api(`${basePath(baseId)}/review/${encodeURIComponent(last.id)}/undo`, { method: "POST" });
      lastAction.current = null;
      setCanUndo(false);
      walker.choose(last.target);
      toast.info("Undone.");
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }, [busy, baseId, walker, toast]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        editing !== null ||
        isTyping(e.target) ||
        e.altKey ||
        e.ctrlKey ||
        e.metaKey ||
        document.querySelector("dialog[open]")
      )
        return;
      if (e.key === "Enter" && isControl(e.target)) return;
      const handlers: Record<string, () => void> = {
        // biome-ignore lint/correctness/noComponentHookFactories: the Enter key's handler, not a component.
        Enter: () => void act("accept"),
        e: () => (denied ? toast.info(denied) : cell && setEditing(cell.value ?? "")),
        r: () => void act("rerun"),
        j: () => walker.move(1),
        k: () => walker.move(-1),
        u: () => void undo(),
      };
      const handler = handlers[e.key];
      if (!handler) return;
      // Captured before the grid sees it: in review mode these keys review, they do not type.
      e.preventDefault();
      e.stopPropagation();
      handler();
    };
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, [editing, act, cell, walker, undo, denied, toast]);

  return (
    <aside
      ref={panel}
      tabIndex={-1}
      aria-label="Review"
      className="flex w-96 outline-none shrink-0 flex-col border-l border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="review-panel"
    >
      <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
        <h2 className="font-semibold">Review</h2>
        <p className="flex-1 text-xs text-zinc-600 tabular-nums dark:text-zinc-400" aria-live="polite">
          {walker.targets.length ? `${plural(walker.targets.length, "cell")} to review` : "Nothing left to review"}
        </p>
        <Button size="sm" variant="ghost" onClick={onExit}>
          Done
        </Button>
      </header>
      {current && column ? (
        <div className="min-h-0 flex-1 overflow-y-auto">
          <div className="flex items-center gap-2 px-4 pt-3">
            <p className="min-w-0 flex-1 truncate text-sm">
              <span className="font-semibold">{column.name}</span>
              <span className="text-zinc-500"> · {rowLabel}</span>
            </p>
            <StatusBadge cell={cell} />
          </div>
          {editing !== null ? (
            <form
              className="space-y-2 px-4 py-3"
              onSubmit={(e) => {
                e.preventDefault();
                void act("edit", editing);
              }}
            >
              <label className="block text-xs font-medium text-zinc-600 dark:text-zinc-400">
                Corrected value
                <textarea
                  autoFocus
                  value={editing}
                  onChange={(e) => setEditing(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Escape") setEditing(null);
                    if (e.key === "Enter" && !e.shiftKey) {
                      e.preventDefault();
                      void act("edit", editing);
                    }
                  }}
                  rows={4}
                  className="mt-1 block w-full rounded-md border border-zinc-300 bg-white p-2 text-sm text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
                />
              </label>
              <div className="flex justify-end gap-2">
                <Button size="sm" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
                <Button size="sm" type="submit" variant="primary" disabled={busy}>
                  Save as verified
                </Button>
              </div>
            </form>
          ) : (
            <CellDetails cell={cell} threshold={threshold} />
          )}
        </div>
      ) : (
        <p className="flex-1 px-4 py-6 text-sm text-zinc-600 dark:text-zinc-400">
          Every AI cell in view is verified, confident enough, or still running.
        </p>
      )}
      <footer className="space-y-2 border-t border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="primary"
            onClick={() => void act("accept")}
            disabled={!current || busy || cell?.status !== "done"}
            deniedReason={denied}
          >
            <CheckIcon /> Accept
          </Button>
          <Button
            size="sm"
            onClick={() => cell && setEditing(cell.value ?? "")}
            disabled={!current || busy}
            deniedReason={denied}
          >
            <PencilIcon /> Edit
          </Button>
          <Button size="sm" onClick={() => void act("rerun")} disabled={!current || busy} deniedReason={rerunDenied}>
            <RefreshIcon /> Re-run
          </Button>
          <Button size="sm" variant="ghost" onClick={() => void undo()} disabled={!canUndo || busy}>
            Undo
          </Button>
        </div>
        <p className="text-[11px] text-zinc-500 dark:text-zinc-400">
          <Kbd>Enter</Kbd> accept · <Kbd>e</Kbd> edit · <Kbd>r</Kbd> re-run · <Kbd>j</Kbd>/<Kbd>k</Kbd> next/previous ·{" "}
          <Kbd>u</Kbd> undo
          {walker.targets.length > 1 ? ` · ${formatCount(walker.targets.length)} left` : ""}
        </p>
      </footer>
    </aside>
  );
}

function Kbd({ children }: { children: React.ReactNode }) {
  return (
    <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1 font-mono text-[10px] dark:border-zinc-700 dark:bg-zinc-800">
      {children}
    </kbd>
  );
}
