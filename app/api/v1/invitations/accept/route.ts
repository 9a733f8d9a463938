import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { acceptInvitation } from "@/lib/auth/people";
import { assertSameOrigin } from "@/lib/auth/session-cookie";
import { answerWithSession } from "@/lib/http/session-answer";
import * as api from "@/lib/http/schemas/members";

/** Joins the workspace and signs the browser in as the member. */
export const POST = route(api.acceptInvitation, async ({ req, rt, audit, body }) => {
  assertSameOrigin(req, rt.config.trustProxy);
  const person = await acceptInvitation(rt, body);
  // Public: the new member is both the actor and the target.
  Object.assign(audit, {
    workspaceId: person.workspaceId,
    actor: { type: "user", id: person.userId },
    targetId: person.userId,
  });
  return answerWithSession(req, rt, { ...person, keyId: null }, (expiresAt) => ({ ...person, expiresAt }));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
