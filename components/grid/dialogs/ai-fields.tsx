"use client";
import { AUTO_RUN, TOOLS, type ColumnForm, type Field } from "./column-form";

const INPUT =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";

/** An AI column's tools, model and when it runs; errors come from the column editor. */
export function AiFields({
  form,
  set,
  toggle,
  err,
  a11y,
}: {
  form: ColumnForm;
  set: <K extends keyof ColumnForm>(k: K, v: ColumnForm[K]) => void;
  toggle: (tool: string) => void;
  err: (f: Field) => React.ReactNode;
  a11y: (f: Field) => { "aria-invalid"?: boolean; "aria-describedby"?: string };
}) {
  return (
    <>
      <fieldset aria-describedby={a11y("tools")["aria-describedby"]}>
        <legend className="font-medium">Tools</legend>
        <div className="mt-1.5 grid gap-1.5 sm:grid-cols-2">
          {TOOLS.map((t) => (
            <label
              key={t.name}
              className="flex items-start gap-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-700"
            >
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-indigo-600"
                checked={form.tools.includes(t.name)}
                onChange={() => toggle(t.name)}
              />
              <span>
                <span className="block font-medium">{t.label}</span>
                <span className="block text-xs text-zinc-500 dark:text-zinc-400">{t.hint}</span>
              </span>
            </label>
          ))}
        </div>
        {err("tools")}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block font-medium">
          Model <span className="font-normal text-zinc-500 dark:text-zinc-400">(optional)</span>
          <input
            className={`${INPUT} h-9 font-mono`}
            value={form.model}
            placeholder="provider:model"
            spellCheck={false}
            onChange={(e) => set("model", e.target.value)}
            {...a11y("model")}
          />
          {err("model")}
        </label>
        <label className="block font-medium">
          Runs
          <select className={`${INPUT} h-9`} value={form.autoRun} onChange={(e) => set("autoRun", e.target.value)}>
            {AUTO_RUN.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}
