import { appError } from "../../errors.ts";

// Queuing an AI cell spends credits, so it needs runs:write. A caller without it (a key given rows:write
// but not runs:write) may still write rows: a write is refused only when it would
// actually queue cells, and it is refused inside its transaction, so nothing of it commits.
// The caller's permission arrives as RunPolicy.mayQueue; the domain knows nothing of principals.

/** Refuses to queue AI cells for a caller who may not spend credits (mayQueue false). */
export function assertMayQueue(policy: Pick<RunPolicy, "mayQueue">, cells: number, message?: string): void {
  if (cells === 0 || policy.mayQueue !== false) return;
  throw appError(
    "insufficient_scope",
    message ??
      `This would queue ${cells} AI cell${cells === 1 ? "" : "s"}, which spends credits: it needs the runs:write scope.`,
    { scope: "runs:write" },
  );
}

/** What a run starts with, from the deployment's configuration. */
export interface RunPolicy {
  cellCost: number;
  /** The cap of a run that asks for none; null: no cap. */
  defaultMaxCredits: number | null;
  /** false: the caller may not spend credits (no runs:write); see spend.ts. */
  mayQueue?: boolean;
  /** The request's API key: the run is charged to it, and refused past its daily cap unless keyCapCheck is false. */
  keyId?: string | null;
  keyCapCheck?: boolean;
  /** Who makes the request (`key_…` or `usr_…`): named in the history of the cells it writes. */
  actorId?: string | null;
}
