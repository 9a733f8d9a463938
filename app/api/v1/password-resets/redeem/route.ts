import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { redeemPasswordReset } from "@/lib/auth/people";
import * as api from "@/lib/http/schemas/members";

/** Sets the new password; every session of the user ends. */
export const POST = route(api.redeemPasswordReset, async ({ rt, audit, body }) => {
  const { userId, workspaceIds } = await redeemPasswordReset(rt, body.token, body.password);
  // Public: the person is both the actor and the target, in each workspace they belong to.
  Object.assign(audit, { workspaceIds, actor: { type: "user", id: userId }, targetId: userId });
  return { reset: true as const };
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
