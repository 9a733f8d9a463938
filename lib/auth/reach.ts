import type { Tx } from "../db/database.ts";
import { appError, type ErrorCode } from "../errors.ts";
import type { Principal } from "./principal.ts";
import { baseInScope } from "./authorize.ts";

// A key limited to some bases reaches a run, a file or an evaluation only in those bases. These
// are looked up by their own id, not under /bases/{baseId}, so route() asks here once the path is
// parsed. Outside the key's bases the answer is the one for an unknown id (404 with the resource's
// code): a limited key learns nothing of the other bases, not even that the id exists.

type BaseOf = (db: Tx, workspaceId: string, id: string) => Promise<{ baseId: string } | null>;

const LOOKUPS: Record<string, { code: ErrorCode; baseOf: BaseOf }> = {
  runId: {
    code: "run_not_found",
    baseOf: (db, workspaceId, id) => db.run.findFirst({ where: { id, workspaceId }, select: { baseId: true } }),
  },
  fileId: {
    code: "file_not_found",
    baseOf: (db, workspaceId, id) => db.storedFile.findFirst({ where: { id, workspaceId }, select: { baseId: true } }),
  },
  evaluationId: {
    code: "evaluation_not_found",
    baseOf: (db, workspaceId, id) => db.evaluation.findFirst({ where: { id, workspaceId }, select: { baseId: true } }),
  },
};

/** Refuses, as not found, an id of a path that belongs to a base outside the caller's bases. */
export async function assertReachable(db: Tx, auth: Principal, params: Record<string, unknown>): Promise<void> {
  if (auth.baseIds === null) return;
  for (const [name, lookup] of Object.entries(LOOKUPS)) {
    const id = params[name];
    if (typeof id !== "string") continue;
    const found = await lookup.baseOf(db, auth.workspaceId, id);
    // Unknown ids are left to the handler, which answers them as it always does.
    if (found && !baseInScope(auth, found.baseId)) throw appError(lookup.code);
  }
}
