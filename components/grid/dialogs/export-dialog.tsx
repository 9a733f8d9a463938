"use client";
import { useState } from "react";
import { Button } from "../../ui/button";
import { Dialog, DialogFooter } from "../../ui/dialog";
import { DownloadIcon } from "../../ui/icons";
import { basePath } from "../../data/api";
import { formatSort, narrows, parseQuery } from "../query/query-state";

// Export: the format, with or without AI metadata, and the rows the grid shows (its filter, sort,
// search and view, as the page's URL holds them) or every row. The browser downloads the file
// straight from the API, streamed, so a large base never sits in the page's memory.

const FORMATS = [
  { value: "csv", label: "CSV", hint: "Opens in Excel, Numbers and Google Sheets" },
  { value: "xlsx", label: "Excel (XLSX)", hint: "Numbers, dates and checkboxes keep their types" },
  { value: "jsonl", label: "JSON Lines", hint: "One JSON object per row, for scripts" },
] as const;

/**
 * The export of what the grid shows: its filter, sort and search as the page's URL holds them.
 * The URL carries a view's state in full (edited or not), so the view itself is not sent: its
 * saved filter would be ANDed with the edited one.
 */
export function exportUrl(
  baseId: string,
  o: { format: string; metadata: boolean; currentView: boolean },
  pageSearch: string,
): string {
  const q = new URLSearchParams({ format: o.format });
  if (o.metadata) q.set("metadata", "true");
  if (o.currentView) {
    const grid = parseQuery(new URLSearchParams(pageSearch));
    if (grid.filter) q.set("filter", JSON.stringify(grid.filter));
    if (grid.sort.length) q.set("sort", formatSort(grid.sort));
    if (grid.search.trim()) q.set("search", grid.search.trim());
  }
  return `${basePath(baseId)}/export?${q}`;
}

export function ExportButton({ baseId }: { baseId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => setOpen(true)}
        title="Download the rows as CSV, XLSX or JSON Lines"
      >
        <DownloadIcon /> Export
      </Button>
      {open ? <ExportDialog baseId={baseId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ExportDialog({ baseId, onClose }: { baseId: string; onClose: () => void }) {
  const [format, setFormat] = useState<string>("csv");
  const [metadata, setMetadata] = useState(false);
  const [currentView, setCurrentView] = useState(true);
  const filtered = typeof window !== "undefined" && narrows(parseQuery(new URLSearchParams(window.location.search)));

  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The API checks every option before the first byte: ask once, so that a refusal (a filter the
  // base no longer fits) shows here instead of as a JSON page; then let the browser download.
  const download = async () => {
    const href = exportUrl(baseId, { format, metadata, currentView }, window.location.search);
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(href, { credentials: "same-origin" });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        return setError(body?.error?.message ?? `The export failed (${res.status}).`);
      }
      await res.body?.cancel();
    } catch {
      return setError("The server did not answer.");
    } finally {
      setBusy(false);
    }
    const a = document.createElement("a");
    a.href = href;
    a.download = "";
    document.body.append(a);
    a.click();
    a.remove();
    onClose();
  };

  return (
    <Dialog open onClose={onClose} title="Export rows" description="Download this base as a file.">
      <div className="space-y-4 px-5 py-4 text-sm">
        <fieldset>
          <legend className="font-medium">Format</legend>
          <div className="mt-1.5 space-y-1.5">
            {FORMATS.map((f) => (
              <label key={f.value} className="flex items-start gap-2">
                <input
                  type="radio"
                  name="export-format"
                  value={f.value}
                  checked={format === f.value}
                  onChange={() => setFormat(f.value)}
                  className="mt-0.5"
                />
                <span>
                  {f.label} <span className="text-zinc-500 dark:text-zinc-400">— {f.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className="font-medium">Rows</legend>
          <div className="mt-1.5 space-y-1.5">
            <label className="flex items-center gap-2">
              <input type="radio" name="export-rows" checked={currentView} onChange={() => setCurrentView(true)} />
              The current view{filtered ? " (its filter, sort and search)" : ""}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="export-rows" checked={!currentView} onChange={() => setCurrentView(false)} />
              All rows
            </label>
          </div>
        </fieldset>
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            checked={metadata}
            onChange={(e) => setMetadata(e.target.checked)}
            className="mt-0.5"
          />
          <span>
            Include AI metadata{" "}
            <span className="text-zinc-500 dark:text-zinc-400">
              — confidence, sources, status and verified, beside each AI column
            </span>
          </span>
        </label>
        {error ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800 dark:bg-red-950/40 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </div>
      <DialogFooter>
        <Button size="sm" onClick={onClose}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" onClick={() => void download()} disabled={busy}>
          Download
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
