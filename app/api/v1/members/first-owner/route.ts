import { json, route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { createFirstOwner } from "@/lib/auth/people";
import { sessionTokenOf } from "@/lib/auth/session-cookie";
import { answerWithSession } from "@/lib/http/session-answer";
import * as api from "@/lib/http/schemas/members";

/** The first owner account; a browser's session (made from the workspace key) becomes the owner's. */
export const POST = route(api.createFirstOwner, async ({ req, rt, auth, body }) => {
  const member = await createFirstOwner(rt, auth.workspaceId, body);
  if (!sessionTokenOf(req)) return json(member, 201);
  return answerWithSession(
    req,
    rt,
    { workspaceId: auth.workspaceId, keyId: null, userId: member.userId },
    () => member,
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
