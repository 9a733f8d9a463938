"use client";
import { useEffect, useId, useRef, useState } from "react";
import type { ColumnView } from "../../data/types";
import { Spinner } from "../../ui/spinner";
import { editorKind, selectChoices } from "./column-kinds";

export type Move = "up" | "down" | "left" | "right" | null;

interface Props {
  column: ColumnView;
  initial: string;
  error: string | null;
  saving: boolean;
  width: number;
  onCommit: (value: string, move: Move) => void;
  onCancel: () => void;
}

const INPUT =
  "bg-transparent px-2 text-[13px] text-zinc-900 outline-none dark:bg-zinc-950 dark:text-zinc-100 disabled:opacity-70";

/**
 * The in-cell editor. Values are sent as typed: the API validates them and its message is shown
 * under the editor, which stays open until the value is accepted or the edit is cancelled.
 */
export function CellEditor({ column, initial, error, saving, width, onCommit, onCancel }: Props) {
  const kind = editorKind(column);
  const [value, setValue] = useState(initial);
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement>(null);
  const errorId = useId();
  const settled = useRef(false);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    try {
      el.setSelectionRange?.(el.value.length, el.value.length);
    } catch {
      // date inputs have no text selection
    }
  }, []);

  useEffect(() => {
    if (error) settled.current = false;
  }, [error]);

  function commit(move: Move) {
    settled.current = true;
    onCommit(value, move);
  }

  const onKeyDown = (e: React.KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === "Escape") {
      e.preventDefault();
      settled.current = true;
      onCancel();
    } else if (e.key === "Enter" && !(kind === "textarea" && e.shiftKey)) {
      e.preventDefault();
      commit(kind === "textarea" ? "down" : e.shiftKey ? "up" : "down");
    } else if (e.key === "Tab") {
      e.preventDefault();
      commit(e.shiftKey ? "left" : "right");
    }
  };

  // Clicking elsewhere keeps a changed value, like a spreadsheet; an unchanged one just closes.
  const onBlur = () => {
    if (settled.current || saving) return;
    if (value === initial) {
      settled.current = true;
      onCancel();
    } else commit(null);
  };

  const common = {
    ref,
    "aria-label": `Edit ${column.name}`,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    disabled: saving,
    onKeyDown,
    onBlur,
  };

  let control: React.ReactNode;
  if (kind === "textarea") {
    control = (
      <textarea
        {...common}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        rows={5}
        className={`${INPUT} absolute top-0 left-0 h-32 resize-none rounded-b-md bg-white py-1.5 shadow-lg ring-2 ring-indigo-500 dark:bg-zinc-950`}
        style={{ width: Math.max(width, 320) }}
      />
    );
  } else if (kind === "select") {
    control = (
      <select
        {...common}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          settled.current = true;
          onCommit(e.target.value, null);
        }}
        className={`${INPUT} h-full w-full`}
      >
        <option value="">—</option>
        {selectChoices(column).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else {
    const isDate = kind === "date" && (value === "" || /^\d{4}-\d{2}-\d{2}$/.test(value));
    control = (
      <input
        {...common}
        type={isDate ? "date" : kind === "url" || kind === "file" ? "url" : "text"}
        inputMode={kind === "number" ? "decimal" : undefined}
        spellCheck={kind === "text"}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        className={`${INPUT} h-full w-full ${kind === "number" ? "text-right tabular-nums" : ""}`}
      />
    );
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: it only keeps the editor's own mouse events from the grid.
    <div
      className="absolute inset-0 z-30 bg-white ring-2 ring-indigo-500 ring-inset dark:bg-zinc-950"
      onMouseDown={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
    >
      {control}
      {saving ? <Spinner className="absolute top-2.5 right-2 text-indigo-500" label="Saving" /> : null}
      {error ? (
        <p
          id={errorId}
          role="alert"
          className="absolute top-full left-0 z-40 mt-1 w-max max-w-80 rounded-md bg-red-600 px-2.5 py-1.5 text-xs leading-snug font-medium text-white shadow-lg"
        >
          {error}
        </p>
      ) : null}
    </div>
  );
}
