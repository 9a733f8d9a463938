"use client";
import { useEffect, useId, useState } from "react";
import { api, basePath } from "../../data/api";
import type { ColumnView } from "../../data/types";
import { Button } from "../../ui/button";
import { fillFromConfig } from "./fill-templates";

interface Preview {
  outcome: "found" | "not_found" | "error";
  value: string;
  outputs: Record<string, string>;
  url: string | null;
  status: number | null;
  cached: boolean;
  latencyMs: number | null;
  credits: number;
  answer: string | null;
  error: { code: string; message: string } | null;
}

const OUTCOME = {
  found: "text-emerald-700 dark:text-emerald-400",
  not_found: "text-sky-700 dark:text-sky-400",
  error: "text-red-700 dark:text-red-400",
};

/** "Test on this row": the HTTP column's request sent for one row before it is saved. */
export function FillPreview({
  baseId,
  config,
  type,
  primary,
}: {
  baseId: string;
  config: string;
  type: string;
  primary: ColumnView | undefined;
}) {
  const id = useId();
  const [rows, setRows] = useState<{ id: string; label: string }[]>([]);
  const [rowId, setRowId] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Preview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void api<{ rows: { id: string; cells: Record<string, string> }[] }>(`${basePath(baseId)}/rows?limit=20`).then(
      (r) => {
        if (!live) return;
        const list = r.rows.map((row, i) => ({
          id: row.id,
          label: (primary && row.cells[primary.name]) || `Row ${i + 1}`,
        }));
        setRows(list);
        setRowId((current) => current || list[0]?.id || "");
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [baseId, primary]);

  async function test() {
    setBusy(true);
    setProblem(null);
    setResult(null);
    try {
      const fill = fillFromConfig(config);
      setResult(await api<Preview>(`${basePath(baseId)}/fill-preview`, { body: { fill, rowId, type } }));
    } catch (e) {
      setProblem(e instanceof Error ? e.message : "The test failed.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-label="Test on this row" className="rounded-md border border-zinc-200 p-2.5 dark:border-zinc-700">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-row`} className="text-xs font-medium">
          Test on
        </label>
        <select
          id={`${id}-row`}
          className="h-8 min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 text-xs dark:border-zinc-700 dark:bg-zinc-950"
          value={rowId}
          onChange={(e) => setRowId(e.target.value)}
          disabled={rows.length === 0}
        >
          {rows.length === 0 ? <option value="">No rows yet</option> : null}
          {rows.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
        <Button onClick={test} disabled={busy || !rowId}>
          {busy ? "Testing…" : "Test on this row"}
        </Button>
      </div>
      {problem ? (
        <p role="alert" className="mt-2 text-xs text-red-600 dark:text-red-400">
          {problem}
        </p>
      ) : null}
      {result ? (
        <div className="mt-2 space-y-1.5 text-xs" data-testid="fill-preview">
          <p>
            <span className={`font-semibold ${OUTCOME[result.outcome]}`}>
              {result.outcome === "found" ? "Found" : result.outcome === "not_found" ? "No data" : "Failed"}
            </span>
            {result.status !== null ? ` · HTTP ${result.status}` : ""}
            {result.cached ? " · from the cache" : result.latencyMs !== null ? ` · ${result.latencyMs} ms` : ""}
            {` · ${result.credits} ${result.credits === 1 ? "credit" : "credits"} a cell`}
          </p>
          {result.outcome === "found" ? (
            <p>
              Value: <span className="font-mono font-medium">{result.value}</span>
            </p>
          ) : null}
          {Object.entries(result.outputs).map(([name, value]) => (
            <p key={name}>
              {name}: <span className="font-mono font-medium">{value}</span>
            </p>
          ))}
          {result.error ? (
            <p className="text-red-700 dark:text-red-400">
              <span className="font-mono">{result.error.code}</span>: {result.error.message}
            </p>
          ) : null}
          {result.answer ? (
            <pre className="max-h-40 overflow-auto rounded bg-zinc-50 p-2 font-mono text-[11px] break-all whitespace-pre-wrap dark:bg-zinc-950">
              {result.answer}
            </pre>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
