// What a principal may do. A role grants permissions; a key carries scopes, and acts with the
// scopes it names that its creator's role also grants. Every endpoint declares the one permission
// it needs (EndpointSpec.scope), and route() checks it before the request is read.

export const ROLES = ["owner", "admin", "editor", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** The scopes a key may carry. */
export const KEY_SCOPES = [
  "rows:read",
  "rows:write",
  "schema:write",
  "runs:write",
  "webhooks:manage",
  "keys:manage",
  "secrets:manage",
  "audit:read",
] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/**
 * Permissions only a signed-in person holds, never a scoped key:
 * - members:manage: invite, change roles, remove members (owners);
 * - keys:own: make, list and revoke one's own keys (every role). A key needs keys:manage instead.
 */
export const PERSON_PERMISSIONS = ["members:manage", "keys:own"] as const;
export type Permission = KeyScope | (typeof PERSON_PERMISSIONS)[number];

const VIEWER: Permission[] = ["rows:read", "keys:own"];
const EDITOR: Permission[] = [...VIEWER, "rows:write", "runs:write"];
const ADMIN: Permission[] = [
  ...EDITOR,
  "schema:write",
  "webhooks:manage",
  "keys:manage",
  "secrets:manage",
  "audit:read",
];
const OWNER: Permission[] = [...ADMIN, "members:manage"];

export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  viewer: new Set(VIEWER),
  editor: new Set(EDITOR),
  admin: new Set(ADMIN),
  owner: new Set(OWNER),
};

export const isRole = (v: unknown): v is Role => typeof v === "string" && (ROLES as readonly string[]).includes(v);
export const isKeyScope = (v: unknown): v is KeyScope =>
  typeof v === "string" && (KEY_SCOPES as readonly string[]).includes(v);

/** Whether role `a` grants at least everything role `b` does. */
export const roleCovers = (a: Role, b: Role) => ROLES.indexOf(a) <= ROLES.indexOf(b);

/** A key's permissions: the scopes it names that its creator's role grants (keys:manage implies keys:own). */
export function keyPermissions(role: Role, scopes: readonly string[]): Set<Permission> {
  const granted = ROLE_PERMISSIONS[role];
  const out = new Set<Permission>();
  for (const s of scopes) if (isKeyScope(s) && granted.has(s)) out.add(s);
  if (out.has("keys:manage")) out.add("keys:own");
  return out;
}

/** The scope an insufficient_scope error names: what a key would need to carry. */
export const scopeToName = (p: Permission): string => (p === "keys:own" ? "keys:manage" : p);
