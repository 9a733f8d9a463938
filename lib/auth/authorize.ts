import { appError } from "../errors.ts";
import type { Principal } from "./principal.ts";
import { type Permission, scopeToName } from "./permissions.ts";

/** Refuses a caller without the endpoint's permission, naming the scope a key would need. */
export function assertPermitted(auth: Principal, endpoint: { scope?: Permission }): void {
  // An endpoint that forgot its scope is refused rather than left open (a test lists them).
  const scope = endpoint.scope;
  if (scope && auth.permissions.has(scope)) return;
  const name = scope ? scopeToName(scope) : "unknown";
  throw appError("insufficient_scope", `This needs the ${name} scope (role ${auth.role}).`, { scope: name });
}

/** Refuses a key limited to other bases. */
export function assertBaseInScope(auth: Principal, baseId: string | undefined): void {
  if (baseId === undefined || auth.baseIds === null || auth.baseIds.includes(baseId)) return;
  throw appError("base_not_in_scope", undefined, { baseId });
}

/** Whether a caller may reach a base (for lists and for lookups by another id, such as a run's). */
export const baseInScope = (auth: Principal, baseId: string) => auth.baseIds === null || auth.baseIds.includes(baseId);
