import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getRuntime } from "@/lib/runtime";
import { SESSION_COOKIE } from "@/lib/auth/session-cookie";
import { principalForSessionOrNull } from "@/lib/auth/session";
import type { Principal } from "@/lib/auth/principal";
import { hasOwnerMember } from "@/lib/auth/members";

/** The signed-in principal of this page request, or null. */
export async function currentPrincipal(): Promise<Principal | null> {
  const rt = await getRuntime();
  return principalForSessionOrNull(rt, (await cookies()).get(SESSION_COOKIE)?.value);
}

export async function autoLoginEnabled(): Promise<boolean> {
  const { config } = await getRuntime();
  return Boolean(config.uiAutoLogin && config.seedApiKey);
}

/** Pages call this first: without a session they go to sign-in (or are signed in automatically). */
export async function requireSession(path: string): Promise<Principal> {
  const principal = await currentPrincipal();
  if (principal) return principal;
  const next = encodeURIComponent(path);
  if (await autoLoginEnabled()) redirect(`/api/v1/session/auto?next=${next}`);
  redirect(`/sign-in?next=${next}`);
}

/** Whether the sign-in page offers single sign-on (OIDC_ISSUER and its client are set). */
export async function ssoEnabled(): Promise<boolean> {
  return (await getRuntime()).config.oidc !== null;
}

/**
 * Whether to offer "Create your owner account": signed in by a workspace key (no person behind
 * it) while the workspace has no owner member yet.
 */
export async function needsFirstOwner(principal: Principal): Promise<boolean> {
  if (principal.userId !== null || principal.keyId === null) return false;
  return !(await hasOwnerMember((await getRuntime()).db.prisma, principal.workspaceId));
}
