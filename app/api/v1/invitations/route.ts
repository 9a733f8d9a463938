import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { createInvitation, invitationUrl, listInvitations } from "@/lib/auth/invitations";
import { linkOrigin } from "@/lib/http/session-answer";
import * as api from "@/lib/http/schemas/members";

export const GET = route(api.listInvitations, async ({ rt, auth }) => ({
  invitations: await listInvitations(rt.db.prisma, auth.workspaceId),
}));

export const POST = route(api.createInvitation, async ({ req, rt, auth, body }) => {
  const { invitation, token } = await createInvitation(rt.db.prisma, {
    workspaceId: auth.workspaceId,
    role: body.role,
    email: body.email,
    invitedBy: auth.actorId,
  });
  const { usedAt: _used, revokedAt: _revoked, ...rest } = invitation;
  return { ...rest, url: invitationUrl(linkOrigin(req, rt), token) };
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
