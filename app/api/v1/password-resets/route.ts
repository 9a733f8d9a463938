import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { passwordResetForMember } from "@/lib/auth/people";
import { linkOrigin } from "@/lib/http/session-answer";
import * as api from "@/lib/http/schemas/members";

export const POST = route(api.createPasswordReset, async ({ req, rt, auth, audit, body }) => {
  audit.targetId = body.userId;
  const link = await passwordResetForMember(rt, auth.workspaceId, body.userId, linkOrigin(req, rt));
  return { url: link.url, expiresAt: link.expiresAt.toISOString() };
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
