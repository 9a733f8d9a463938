// The tables whose writes the owners test (test/unit/architecture.test.ts) confines to one owner.
// ARCHITECTURE.md marks the same owners "(checked)", and architecture-doc.test.ts holds the doc
// to this list, so the doc and the test cannot name different owners.

export interface CheckedOwner {
  /** The SQL table, as `@@map` names it in prisma/schema.prisma. */
  table: string;
  /** The Prisma client's name for its model. */
  model: string;
  /** A folder (ending in "/") whose files may write the table, or the one file that may. */
  owner: string;
}

export const CHECKED_OWNERS: readonly CheckedOwner[] = [
  { table: "audit_entries", model: "auditEntry", owner: "lib/audit/record.ts" },
  { table: "cells", model: "cell", owner: "lib/domain/cells/" },
  { table: "cell_runs", model: "cellAttempt", owner: "lib/domain/cells/" },
  { table: "cell_history", model: "cellHistory", owner: "lib/domain/history/" },
  { table: "credit_entries", model: "creditEntry", owner: "lib/credits/ledger.ts" },
  { table: "runs", model: "run", owner: "lib/domain/runs/record.ts" },
  { table: "rows", model: "row", owner: "lib/domain/rows/" },
  { table: "workspace_secrets", model: "workspaceSecret", owner: "lib/secrets/store.ts" },
];

/** Whether `file` (a path from the repository's root) lies within `owner`. */
export const ownedBy = (owner: string, file: string): boolean =>
  owner.endsWith("/") ? file.startsWith(owner) : file === owner;
