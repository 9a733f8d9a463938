"use client";
import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { basePath } from "../../data/api";
import { keys } from "../../data/queries";
import type { ColumnView } from "../../data/types";
import { historyKey } from "../history/history-model";
import { MAX_ROW_REFETCH, type RowLoader } from "./row-loader";

export type LiveStatus = "connecting" | "live" | "reconnecting" | "offline";

const RECONNECT_MS = 5_000;

interface RowsChanged {
  kind: "added" | "updated" | "deleted";
  rowIds: string[] | null;
}

/**
 * Subscribes to the base's Server-Sent Events and applies each change: cell status changes
 * patch the row in place, finished cells and updated rows are refetched, new rows are read from
 * the tail, and a reset (missed events) reloads everything. No polling.
 */
export function useLiveUpdates(baseId: string, loader: RowLoader | null, columns: ColumnView[]): LiveStatus {
  const qc = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const columnsRef = useRef(columns);
  columnsRef.current = columns;

  useEffect(() => {
    if (!loader) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let lastId = "";
    let stopped = false;

    const connect = () => {
      // EventSource resends Last-Event-ID on its own reconnects; after a manual reconnect the
      // position goes in the query string instead.
      const url = `${basePath(baseId)}/events${lastId ? `?lastEventId=${encodeURIComponent(lastId)}` : ""}`;
      const es = (source = new EventSource(url));
      const on = <T>(type: string, fn: (data: T) => void) =>
        es.addEventListener(type, (ev) => {
          const m = ev as MessageEvent<string>;
          if (m.lastEventId) lastId = m.lastEventId;
          try {
            fn(JSON.parse(m.data) as T);
          } catch (e) {
            console.warn("[cellwright] bad live event", type, e);
          }
        });

      on("ready", () => {
        setStatus("live");
        loader.streamReady();
      });
      on("reset", () => {
        void loader.reload();
        void qc.invalidateQueries({ queryKey: keys.structure(baseId) });
        void qc.invalidateQueries({ queryKey: keys.base(baseId) });
      });
      on<{ rowId: string; columnId: string; status: string }>("cell.updated", (d) => {
        const column = columnsRef.current.find((c) => c.id === d.columnId);
        if (column && (d.status === "pending" || d.status === "running")) {
          loader.patchCell(d.rowId, column.name, { status: d.status, error: undefined });
        } else loader.refresh([d.rowId]);
      });
      // A value really changed: the row is read again for its changedAt mark, and an open history
      // of any of its cells shows the new change.
      on<{ rowId: string }>("cell.changed", (d) => {
        loader.refresh([d.rowId]);
        void qc.invalidateQueries({ queryKey: historyKey(baseId, d.rowId) });
      });
      on<{ rowId: string }>("row.sheet.processed", (d) => loader.refresh([d.rowId]));
      on<RowsChanged>("rows.changed", (d) => {
        if (d.kind === "added") loader.fetchTail();
        else if (d.kind === "deleted") {
          if (d.rowIds) loader.removed(d.rowIds);
          else void loader.reload();
        } else if (d.rowIds && d.rowIds.length <= MAX_ROW_REFETCH) loader.refresh(d.rowIds);
        else void loader.reload();
      });
      // Throttled by the server (4 a second per run): the run bar refetches the latest run.
      on("run.updated", () => void qc.invalidateQueries({ queryKey: keys.runs(baseId) }));
      on("structure.changed", () => {
        void qc.invalidateQueries({ queryKey: keys.structure(baseId) });
        void qc.invalidateQueries({ queryKey: keys.base(baseId) });
      });
      es.onerror = () => {
        if (stopped) return;
        if (es.readyState === EventSource.CLOSED) {
          // The server refused (signed out, base deleted, restart): try again a little later.
          setStatus("offline");
          retry = setTimeout(connect, RECONNECT_MS);
        } else setStatus("reconnecting");
      };
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [baseId, loader, qc]);

  return status;
}
