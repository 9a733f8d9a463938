"use client";
import { formatCount, plural } from "../ui/format";
import type { ImportOptionsInput, ImportPreview } from "./import-api";

const ACTION: Record<string, string> = { match: "column", create: "new column", ignore: "ignored" };

/** The first lines as they would land, with each field's column and type, and the options. */
export function ImportPreviewPanel({
  preview,
  options,
  onOptions,
}: {
  preview: ImportPreview;
  options: ImportOptionsInput;
  onOptions: (o: ImportOptionsInput) => void;
}) {
  const keys = preview.fields.filter((f) => f.column !== null);
  return (
    <div className="space-y-4">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {preview.format.toUpperCase()}, {plural(preview.linesTotal, "line")}. The first{" "}
        {Math.min(20, preview.rows.length)} are shown.
      </p>
      <div className="max-h-72 overflow-auto rounded-md border border-zinc-200 dark:border-zinc-800">
        <table className="w-full text-left text-xs" aria-label="Import preview">
          <thead className="sticky top-0 bg-zinc-50 dark:bg-zinc-900">
            <tr>
              {preview.fields.map((f, i) => (
                <th
                  key={i}
                  scope="col"
                  className="border-b border-zinc-200 px-2 py-1.5 font-medium whitespace-nowrap dark:border-zinc-800"
                >
                  <span className="block">{f.name}</span>
                  <span
                    className={`block font-normal ${f.action === "ignore" ? "text-zinc-400" : f.action === "create" ? "text-indigo-600 dark:text-indigo-400" : "text-zinc-500"}`}
                    data-field-type={f.type ?? ""}
                  >
                    {f.action === "ignore" ? "ignored" : `${f.type} · ${ACTION[f.action]}`}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r, i) => (
              <tr key={i} className="odd:bg-white even:bg-zinc-50/60 dark:odd:bg-zinc-950 dark:even:bg-zinc-900/60">
                {preview.fields.map((_, j) => (
                  <td key={j} className="max-w-48 truncate px-2 py-1 whitespace-nowrap">
                    {r[j] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <label className="flex items-center gap-2">
          Merge key
          <select
            aria-label="Merge key"
            value={options.mergeOn[0] ?? ""}
            onChange={(e) => onOptions({ ...options, mergeOn: e.target.value ? [e.target.value] : [] })}
            className="h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          >
            <option value="">None: add every line</option>
            {keys.map((f) => (
              <option key={f.column!} value={f.column!}>
                {f.column}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={options.runAi}
            onChange={(e) => onOptions({ ...options, runAi: e.target.checked })}
          />
          Run AI columns
        </label>
      </div>
      <p className="text-sm" data-testid="ai-estimate">
        {preview.aiCells > 0
          ? `Up to ${formatCount(preview.aiCells)} AI cells will be queued (${preview.aiColumns.join(", ")}).`
          : "No AI cells will be queued."}
      </p>
    </div>
  );
}
