import type { Runtime } from "../../runtime.ts";
import { newId } from "../../ids.ts";
import type { OidcSettings } from "./provider.ts";
import { failed, type SsoIdentity } from "./flow.ts";

// Who a provider's identity is here, in three steps (docs/sso.md):
// 1. the user already linked to this issuer and subject;
// 2. else the user with the same email, which the provider must have verified: the identity is
//    linked to them, so their password (if any) and their single sign-on are one account;
// 3. else a new user, made just in time.
// They sign in to the single sign-on workspace (OIDC_WORKSPACE, else the oldest one). A member
// keeps their role; anyone else joins it with OIDC_DEFAULT_ROLE.

export interface SsoMember {
  workspaceId: string;
  userId: string;
}

export async function memberForIdentity(rt: Runtime, settings: OidcSettings, id: SsoIdentity): Promise<SsoMember> {
  const workspaceId = await ssoWorkspaceId(rt, settings);
  const userId = await userForIdentity(rt, id);
  // createMany with skipDuplicates: a member keeps their role, and two sign-ins at once do not collide.
  await rt.db.prisma.membership.createMany({
    data: [{ workspaceId, userId, role: settings.defaultRole }],
    skipDuplicates: true,
  });
  return { workspaceId, userId };
}

async function ssoWorkspaceId(rt: Runtime, settings: OidcSettings): Promise<string> {
  const ws = await rt.db.prisma.workspace.findFirst({
    where: settings.workspace ? { name: settings.workspace } : {},
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  if (!ws) throw failed(`no workspace ${settings.workspace ? `named "${settings.workspace}"` : "exists yet"}`);
  return ws.id;
}

async function userForIdentity(rt: Runtime, id: SsoIdentity): Promise<string> {
  const users = rt.db.prisma.user;
  const linked = await users.findUnique({
    where: { oidcIssuer_oidcSubject: { oidcIssuer: id.issuer, oidcSubject: id.subject } },
    select: { id: true },
  });
  if (linked) return linked.id;
  // Linking or creating by email trusts the address: only one the provider verified.
  if (!id.email) throw failed("the provider gave no email address");
  if (!id.emailVerified) throw failed(`the provider has not verified ${id.email}`);
  const byEmail = await users.findUnique({ where: { email: id.email }, select: { id: true, oidcIssuer: true } });
  if (byEmail) {
    // One identity per user and issuer: an address already linked to another subject of this
    // provider is someone else's account there, and is not taken over.
    if (byEmail.oidcIssuer === id.issuer) throw failed(`${id.email} is linked to another account of the provider`);
    await users.update({ where: { id: byEmail.id }, data: { oidcIssuer: id.issuer, oidcSubject: id.subject } });
    return byEmail.id;
  }
  try {
    const user = await users.create({
      data: { id: newId.user(), email: id.email, name: id.name, oidcIssuer: id.issuer, oidcSubject: id.subject },
      select: { id: true },
    });
    return user.id;
  } catch (e) {
    // The same person signing in twice at once: the other request made the user.
    const again = await users.findUnique({
      where: { oidcIssuer_oidcSubject: { oidcIssuer: id.issuer, oidcSubject: id.subject } },
      select: { id: true },
    });
    if (again) return again.id;
    throw e;
  }
}
