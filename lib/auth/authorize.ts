import { appError } from "../errors.ts";
import type { Principal } from "./principal.ts";
import { type Permission, scopeToName } from "./permissions.ts";

/** What route() reads of an endpoint to authorise a call. */
export interface AccessSpec {
  scope?: Permission;
  spendsCredits?: boolean;
  allBases?: boolean;
}

/**
 * Every permission an endpoint needs: its scope, and runs:write when it always spends credits (the
 * assistant bills each request). An endpoint that forgot its scope needs a permission no one holds.
 */
export function requiredScopes(endpoint: AccessSpec): Permission[] {
  const scopes: Permission[] = endpoint.scope ? [endpoint.scope] : [];
  if (endpoint.spendsCredits && endpoint.scope !== "runs:write") scopes.push("runs:write");
  return scopes;
}

/** Refuses a caller without every permission the endpoint needs, naming the first scope missing. */
export function assertPermitted(auth: Principal, endpoint: AccessSpec): void {
  // An endpoint that forgot its scope is refused rather than left open (a unit test lists them).
  if (!endpoint.scope) throw insufficientScope(auth, "unknown");
  for (const scope of requiredScopes(endpoint)) if (!auth.permissions.has(scope)) throw insufficientScope(auth, scope);
}

/** The 403 that names the scope a key would need. */
export function insufficientScope(auth: Pick<Principal, "role">, scope: Permission | "unknown") {
  const name = scope === "unknown" ? scope : scopeToName(scope);
  return appError("insufficient_scope", `This needs the ${name} scope (role ${auth.role}).`, { scope: name });
}

/** Refuses a key limited to other bases. */
export function assertBaseInScope(auth: Principal, baseId: string | undefined): void {
  if (baseId === undefined || auth.baseIds === null || auth.baseIds.includes(baseId)) return;
  throw appError("base_not_in_scope", undefined, { baseId });
}

/**
 * Refuses a key limited to some bases on an endpoint that reaches every base or makes a new one
 * (a new base would be outside the key's bases; webhooks and the ledger span all of them).
 */
export function assertAllBases(auth: Principal, endpoint: AccessSpec): void {
  if (!endpoint.allBases || auth.baseIds === null) return;
  throw appError("base_not_in_scope", "This key is limited to some bases; this needs a key for every base.", {
    baseIds: auth.baseIds,
  });
}

/** Whether a caller may reach a base (for lists and for lookups by another id, such as a run's). */
export const baseInScope = (auth: Principal, baseId: string) => auth.baseIds === null || auth.baseIds.includes(baseId);

/** Whether a caller may do what spends credits: a write that queues AI cells needs runs:write. */
export const maySpend = (auth: Principal) => auth.permissions.has("runs:write");

/** A run policy for this caller: without runs:write, a write that would queue AI cells is refused. */
export const spendingPolicy = <P extends object>(
  policy: P,
  auth: Principal,
): P & { mayQueue: boolean; keyId: string | null; actorId: string } => ({
  ...policy,
  mayQueue: maySpend(auth),
  keyId: auth.keyId,
  actorId: auth.actorId,
});
