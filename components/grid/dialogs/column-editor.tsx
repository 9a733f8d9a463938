"use client";
import { useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, basePath } from "../../data/api";
import { keys } from "../../data/queries";
import type { ColumnView } from "../../data/types";
import { Button } from "../../ui/button";
import { Dialog, DialogFooter } from "../../ui/dialog";
import { TYPE_OPTIONS } from "../cells/column-kinds";
import { ConfigField, FillModePicker, FormulaField } from "./fill-fields";
import { FillPreview } from "./fill-preview";
import { AiFields } from "./ai-fields";
import { fieldErrors, formFor, requestBody, type ColumnForm, type Field } from "./column-form";
import { RunIfEditor } from "./run-if-editor";
import { WaterfallStepsField } from "./waterfall-steps";

const INPUT =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

/**
 * Creates or edits a column through the structure API. The API is the only validator: its
 * errors (a dependency cycle, a duplicate name, an unknown model) appear under their field.
 */
export function ColumnEditor({
  baseId,
  column,
  columns,
  onClose,
}: {
  baseId: string;
  column: ColumnView | null;
  columns: ColumnView[];
  onClose: () => void;
}) {
  const [form, setForm] = useState<ColumnForm>(() => formFor(column));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const id = useId();
  const set = <K extends keyof ColumnForm>(k: K, v: ColumnForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const toggle = (k: "inputColumnIds" | "tools", v: string) =>
    setForm((f) => ({ ...f, [k]: f[k].includes(v) ? f[k].filter((x) => x !== v) : [...f[k], v] }));
  const others = columns.filter((c) => c.id !== column?.id);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const url = column ? `${basePath(baseId)}/columns/${column.id}` : `${basePath(baseId)}/columns`;
      await api(url, { method: column ? "PATCH" : "POST", body: requestBody(form, column, others) });
      await qc.invalidateQueries({ queryKey: keys.structure(baseId) });
      onClose();
    } catch (err) {
      setErrors(
        fieldErrors(
          err,
          form.waterfall.steps.map((s) => s.id),
        ),
      );
      setBusy(false);
    }
  }

  const err = (f: Field) =>
    errors[f] ? (
      <p id={`${id}-${f}-error`} role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
        {errors[f]}
      </p>
    ) : null;
  const a11y = (f: Field) => ({
    "aria-invalid": errors[f] ? true : undefined,
    "aria-describedby": errors[f] ? `${id}-${f}-error` : undefined,
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title={column ? `Edit “${column.name}”` : "New column"}
      className="w-[min(36rem,calc(100vw-2rem))]"
    >
      <form onSubmit={save} className="flex min-h-0 flex-col" noValidate>
        <div className="min-h-0 space-y-4 overflow-y-auto px-5 py-4 text-sm">
          <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
            <label className="block font-medium">
              Name
              <input
                className={`${INPUT} h-9`}
                value={form.name}
                onChange={(e) => set("name", e.target.value)}
                autoFocus
                maxLength={100}
                required
                {...a11y("name")}
              />
              {err("name")}
            </label>
            <label className="block font-medium">
              Type
              <select
                className={`${INPUT} h-9`}
                value={form.type}
                onChange={(e) => set("type", e.target.value)}
                {...a11y("type")}
              >
                {TYPE_OPTIONS.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
              {err("type")}
            </label>
          </div>
          {form.type === "select" ? (
            <label className="block font-medium">
              Options <span className="font-normal text-zinc-500 dark:text-zinc-400">(one per line)</span>
              <textarea
                className={`${INPUT} py-1.5`}
                rows={3}
                value={form.options}
                onChange={(e) => set("options", e.target.value)}
                {...a11y("options")}
              />
              {err("options")}
            </label>
          ) : null}
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                className="size-4 accent-indigo-600"
                checked={form.isPrimary}
                disabled={column?.isPrimary}
                onChange={(e) => set("isPrimary", e.target.checked)}
                {...a11y("isPrimary")}
              />
              Primary column
            </label>
          </div>
          {err("isPrimary")}
          <FillModePicker mode={form.mode} onChange={(m) => set("mode", m)} />
          <label className="block font-medium">
            {form.mode === "ai" ? "Instructions" : "Description"}
            <textarea
              className={`${INPUT} py-1.5`}
              rows={form.mode === "ai" ? 4 : 2}
              value={form.instructions}
              placeholder={
                form.mode === "ai"
                  ? "e.g. Find the company's headquarters city from its website."
                  : "What this column holds"
              }
              onChange={(e) => set("instructions", e.target.value)}
              {...a11y("instructions")}
            />
            {err("instructions")}
          </label>
          {form.mode === "formula" ? (
            <FormulaField
              expression={form.expression}
              onChange={(v) => set("expression", v)}
              columns={others}
              error={errors.expression}
              errorId={`${id}-expression-error`}
            />
          ) : null}
          {form.mode === "http" ? (
            <ConfigField
              value={form.config}
              onChange={(v) => set("config", v)}
              error={errors.config ?? errors.expression}
              errorId={`${id}-config-error`}
            />
          ) : null}
          {form.mode === "waterfall" ? (
            <WaterfallStepsField
              draft={form.waterfall}
              onChange={(w) => set("waterfall", w)}
              errorOf={(stepId) => errors[`step:${stepId}`]}
              error={errors.config ?? errors.expression}
              errorId={`${id}-config-error`}
            />
          ) : null}
          {form.mode === "http" ? (
            <FillPreview
              baseId={baseId}
              config={form.config}
              type={form.type}
              primary={columns.find((c) => c.isPrimary)}
            />
          ) : null}
          {form.mode === "ai" || form.mode === "waterfall" ? (
            <fieldset aria-describedby={errors.inputColumnIds ? `${id}-inputColumnIds-error` : undefined}>
              <legend className="font-medium">Input columns</legend>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                The values the AI reads for each row. A column cannot depend on itself through others.
              </p>
              <div className="mt-1.5 flex flex-wrap gap-1.5">
                {others.length === 0 ? <span className="text-xs text-zinc-500">No other columns yet.</span> : null}
                {others.map((c) => (
                  <label
                    key={c.id}
                    className="flex cursor-pointer items-center gap-1.5 rounded-full border border-zinc-300 px-2.5 py-1 text-xs has-checked:border-indigo-500 has-checked:bg-indigo-50 has-checked:text-indigo-900 dark:border-zinc-700 dark:has-checked:bg-indigo-950 dark:has-checked:text-indigo-100"
                  >
                    <input
                      type="checkbox"
                      className="size-3.5 accent-indigo-600"
                      checked={form.inputColumnIds.includes(c.id)}
                      onChange={() => toggle("inputColumnIds", c.id)}
                    />
                    {c.name}
                  </label>
                ))}
              </div>
              {err("inputColumnIds")}
            </fieldset>
          ) : null}
          {form.mode === "ai" ? (
            <AiFields form={form} set={set} toggle={(v) => toggle("tools", v)} err={err} a11y={a11y} />
          ) : null}
          {form.mode !== "manual" && form.mode !== "formula" ? (
            <RunIfEditor
              rows={form.runIf}
              raw={column?.runIf ?? null}
              columns={others}
              onChange={(rows) => set("runIf", rows)}
              onClearRaw={() => set("runIf", [])}
              error={err("runIf")}
            />
          ) : null}
          {errors.form ? (
            <p
              role="alert"
              className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
            >
              {errors.form}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? "Saving…" : column ? "Save column" : "Add column"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
