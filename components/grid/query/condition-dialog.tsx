"use client";
import { useMemo, useState } from "react";
import type { ColumnView } from "../../data/types";
import { Button } from "../../ui/button";
import { Dialog, DialogFooter } from "../../ui/dialog";
import { selectChoices } from "../cells/column-kinds";
import { choiceOf, operatorChoices, STATUS_CHOICES, type OperatorChoice } from "./filter-ops";
import type { Condition } from "./query-state";

const FIELD =
  "mt-1 block h-9 w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:border-zinc-700 dark:bg-zinc-950";

/** Adds a condition, or edits one: a column, an operator fit for its type, and a value. */
export function ConditionDialog({
  columns,
  initial,
  onSave,
  onClose,
}: {
  columns: ColumnView[];
  initial: Condition | null;
  onSave: (c: Condition) => void;
  onClose: () => void;
}) {
  const start = initial ? choiceOf(initial) : null;
  const [columnId, setColumnId] = useState(
    () => columns.find((c) => c.id === initial?.column || c.name === initial?.column)?.id ?? columns[0]?.id ?? "",
  );
  const column = columns.find((c) => c.id === columnId);
  const choices = useMemo(() => (column ? operatorChoices(column) : []), [column]);
  const [opId, setOpId] = useState(start?.id ?? choices[0]?.id ?? "eq");
  const [value, setValue] = useState(start?.value ?? "");
  const choice = choices.find((c) => c.id === opId) ?? choices[0];
  const missing = choice && choice.input !== "none" && value.trim() === "";

  const pickColumn = (id: string) => {
    setColumnId(id);
    const next = columns.find((c) => c.id === id);
    const nextChoices = next ? operatorChoices(next) : [];
    if (!nextChoices.some((c) => c.id === opId)) setOpId(nextChoices[0]?.id ?? "eq");
    setValue("");
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={initial ? "Edit condition" : "Add a condition"}
      description="Rows that match every condition are shown."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!column || !choice || missing) return;
          onSave(choice.build(column.id, value.trim()));
        }}
      >
        <div className="grid gap-3 px-5 py-4 sm:grid-cols-3">
          <label className="text-sm font-medium">
            Column
            <select value={columnId} onChange={(e) => pickColumn(e.target.value)} className={FIELD}>
              {columns.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium">
            Operator
            <select value={choice?.id ?? ""} onChange={(e) => setOpId(e.target.value)} className={FIELD}>
              {choices.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          {choice && choice.input !== "none" ? (
            <label className="text-sm font-medium">
              Value
              <ValueInput choice={choice} column={column} value={value} onChange={setValue} />
            </label>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={!column || missing}>
            {initial ? "Save" : "Add condition"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}

function ValueInput({
  choice,
  column,
  value,
  onChange,
}: {
  choice: OperatorChoice;
  column: ColumnView | undefined;
  value: string;
  onChange: (v: string) => void;
}) {
  const common = {
    value,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange(e.target.value),
    className: FIELD,
    "aria-label": "Value",
  };
  const options = (list: readonly string[], labels?: Record<string, string>) => (
    <select {...common}>
      <option value="" disabled>
        Choose…
      </option>
      {list.map((o) => (
        <option key={o} value={o}>
          {labels?.[o] ?? o}
        </option>
      ))}
    </select>
  );
  switch (choice.input) {
    case "boolean":
      return options(["true", "false"], { true: "checked", false: "unchecked" });
    case "option":
      return options(column ? selectChoices(column) : []);
    case "status":
      return options(STATUS_CHOICES);
    case "number":
      return <input type="number" step="any" autoFocus {...common} />;
    case "percent":
      return <input type="number" min={0} max={100} step={1} placeholder="%" autoFocus {...common} />;
    case "date":
      return <input type="date" autoFocus {...common} />;
    case "list":
      return <input placeholder="a, b, c" autoFocus {...common} />;
    default:
      return <input autoFocus {...common} />;
  }
}
