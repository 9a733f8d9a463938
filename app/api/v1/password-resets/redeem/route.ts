import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { redeemPasswordReset } from "@/lib/auth/people";
import * as api from "@/lib/http/schemas/members";

/** Sets the new password; every session of the user ends. */
export const POST = route(api.redeemPasswordReset, async ({ rt, body }) => {
  await redeemPasswordReset(rt, body.token, body.password);
  return { reset: true as const };
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
