import { messages } from "@electric-sql/pglite";

// What crosses between the server's threads and the embedded database's own (embedded-thread.ts
// asks, embedded-host.ts answers). Values cross as structured clones; functions cannot, so a
// statement's type parsers stay on the asking side and rows cross as the backend's text.

export type Request =
  | { op: "query"; sql: string; params: unknown[] }
  | { op: "exec"; sql: string }
  | { op: "begin"; tx: number }
  | { op: "txQuery"; tx: number; sql: string; params: unknown[] }
  | { op: "txExec"; tx: number; sql: string }
  | { op: "rollback"; tx: number }
  /** The transaction's callback finished: commit unless rolled back (ok), or roll back. */
  | { op: "end"; tx: number; ok: boolean }
  | { op: "maintain" }
  | { op: "stopMaintenance" }
  | { op: "noteWrites"; rows: number }
  | { op: "close" };

export type Reply =
  | { id: number; value: unknown }
  | { id: number; error: WireError }
  /** The database broke (a PANIC, a statement cut short): the process must start it again. */
  | { panic: WireError }
  | { ready: { arrayTypes: [number, number][] } }
  | { failed: WireError };

export interface WireError {
  name: string;
  message: string;
  stack?: string;
  /** A DatabaseError of PGlite's: the Prisma adapter maps those by class. */
  database: boolean;
  fields: Record<string, unknown>;
}

// What the asking side knows better: the statement and its parameters (re-attached there).
const LEFT_OUT = new Set(["query", "params", "queryOptions", "name", "message", "stack"]);

export function toWire(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: "Error", message: String(e), database: false, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (!LEFT_OUT.has(k) && (v === null || ["string", "number", "boolean", "undefined"].includes(typeof v))) {
      fields[k] = v;
    }
  }
  return { name: e.name, message: e.message, stack: e.stack, database: e instanceof messages.DatabaseError, fields };
}

export function fromWire(w: WireError): Error {
  const e =
    w.database && typeof w.fields.length === "number"
      ? new messages.DatabaseError(w.message, w.fields.length, "error")
      : new Error(w.message);
  Object.assign(e, w.fields);
  Object.defineProperty(e, "name", { value: w.name, writable: true, configurable: true });
  if (w.stack) e.stack = w.stack;
  return e;
}
