"use client";
import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { api, basePath, errorMessage } from "../data/api";
import { keys } from "../data/queries";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { plural } from "../ui/format";
import { Spinner } from "../ui/spinner";
import { previewImport, startImport, type ImportJob, type ImportOptionsInput, type ImportPreview } from "./import-api";
import { ImportPreviewPanel } from "./import-preview";

/**
 * Import a file: drop it, see the first lines with their columns and types, choose a merge key,
 * see the AI estimate, import, and watch the progress to a summary. Without a baseId it makes a
 * new base named after the file ("New base from file"), removed again if the dialog is cancelled.
 */
export function ImportDialog({ open, onClose, baseId }: { open: boolean; onClose: () => void; baseId?: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [target, setTarget] = useState<string | null>(baseId ?? null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [options, setOptions] = useState<ImportOptionsInput>({ mergeOn: [], runAi: true, createColumns: true });
  const [job, setJob] = useState<ImportJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const created = useRef<string | null>(null);
  const router = useRouter();
  const qc = useQueryClient();

  useEffect(() => {
    if (!job || job.status === "done" || job.status === "failed" || !target) return;
    const timer = setTimeout(
      () => void api<ImportJob>(`${basePath(target)}/imports/${job.id}`).then(setJob, (e) => setError(errorMessage(e))),
      400,
    );
    return () => clearTimeout(timer);
  }, [job, target]);
  useEffect(() => {
    if (job?.status !== "done" && job?.status !== "failed") return;
    void qc.invalidateQueries({ queryKey: keys.bases });
    if (target) void qc.invalidateQueries({ queryKey: keys.structure(target) });
  }, [job?.status, target, qc]);

  async function choose(f: File) {
    setFile(f);
    setError(null);
    setBusy(true);
    try {
      let id = target;
      if (!id) {
        const base = await api<{ baseId: string }>("/api/v1/bases", {
          body: { baseName: f.name.replace(/\.[^.]+$/, "").slice(0, 200) || undefined },
        });
        id = created.current = base.baseId;
        setTarget(id);
      }
      setPreview(await previewImport(id, f, { ...options, mergeOn: [] }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  async function run() {
    if (!file || !target) return;
    setBusy(true);
    setError(null);
    try {
      setJob(await startImport(target, file, options));
      created.current = null;
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  function close() {
    // A base made for a file that was never imported goes again.
    if (created.current)
      void api(basePath(created.current), { method: "DELETE" }).then(() =>
        qc.invalidateQueries({ queryKey: keys.bases }),
      );
    created.current = null;
    setFile(null);
    setPreview(null);
    setJob(null);
    setError(null);
    if (!baseId) setTarget(null);
    onClose();
  }

  const finished = job?.status === "done" || job?.status === "failed";
  return (
    <Dialog
      open={open}
      onClose={close}
      title={baseId ? "Import a file" : "New base from file"}
      description="CSV, TSV, XLSX or JSON Lines. Headers match columns by name; the others become new columns."
      className="w-[min(48rem,calc(100vw-2rem))]!"
    >
      <div className="min-h-0 space-y-4 overflow-y-auto px-5 py-4">
        {!preview && !job ? <DropZone busy={busy} file={file} onFile={(f) => void choose(f)} /> : null}
        {preview && !job ? (
          <ImportPreviewPanel
            preview={{ ...preview, aiCells: options.runAi ? preview.aiCells : 0 }}
            options={options}
            onOptions={setOptions}
          />
        ) : null}
        {job ? <Progress job={job} /> : null}
        {error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </div>
      <DialogFooter>
        {finished ? (
          <>
            {!baseId && target ? <Button onClick={() => router.push(`/bases/${target}`)}>Open base</Button> : null}
            <Button variant="primary" onClick={close}>
              Close
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close}>{job ? "Close (it keeps running)" : "Cancel"}</Button>
            {!job ? (
              <Button variant="primary" disabled={!preview || busy} onClick={() => void run()}>
                {busy && preview ? "Starting…" : preview ? `Import ${plural(preview.linesTotal, "line")}` : "Import"}
              </Button>
            ) : null}
          </>
        )}
      </DialogFooter>
    </Dialog>
  );
}

function DropZone({ busy, file, onFile }: { busy: boolean; file: File | null; onFile: (f: File) => void }) {
  const [over, setOver] = useState(false);
  return (
    <label
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const f = e.dataTransfer.files[0];
        if (f) onFile(f);
      }}
      className={`flex cursor-pointer flex-col items-center rounded-xl border-2 border-dashed px-6 py-10 text-center text-sm ${over ? "border-indigo-500 bg-indigo-50 dark:bg-indigo-950" : "border-zinc-300 dark:border-zinc-700"}`}
    >
      {busy ? (
        <span className="flex items-center gap-2">
          <Spinner /> Reading {file?.name}…
        </span>
      ) : (
        <>
          <span className="font-medium">Drop a file here, or choose one</span>
          <span className="mt-1 text-zinc-500">.csv, .tsv, .xlsx, .jsonl</span>
        </>
      )}
      <input
        type="file"
        aria-label="File to import"
        accept=".csv,.tsv,.txt,.xlsx,.jsonl,.ndjson"
        className="sr-only"
        onChange={(e) => e.target.files?.[0] && onFile(e.target.files[0])}
      />
    </label>
  );
}

function Progress({ job }: { job: ImportJob }) {
  const share = job.linesTotal ? job.rowsRead / job.linesTotal : job.status === "done" ? 1 : 0;
  return (
    <div className="space-y-3" data-testid="import-progress" data-status={job.status}>
      <div
        className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
      >
        <div
          className={`h-full transition-[width] ${job.status === "failed" ? "bg-red-500" : "bg-indigo-500"}`}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </div>
      <p className="text-sm" aria-live="polite">
        {job.status === "queued"
          ? "Waiting for a worker…"
          : job.status === "running" && job.linesTotal === null
            ? "Reading the file…"
            : `${job.status === "done" ? "Done" : job.status === "failed" ? "Failed" : "Importing"}: ${plural(job.rowsRead, "line")} read${job.linesTotal ? ` of ${job.linesTotal.toLocaleString()}` : ""}, ${plural(job.rowsCreated, "row")} created, ${job.rowsUpdated.toLocaleString()} updated, ${job.rowsSkipped.toLocaleString()} skipped.`}
      </p>
      {job.createdColumns.length > 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">New columns: {job.createdColumns.join(", ")}</p>
      ) : null}
      {job.errors.length > 0 ? (
        <ul
          aria-label="Import errors"
          className="max-h-40 overflow-auto rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          {job.errors.slice(0, 20).map((e, i) => (
            <li key={i}>
              {e.line > 0 ? `Line ${e.line}: ` : ""}
              {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
