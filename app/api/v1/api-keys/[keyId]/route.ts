import { route } from "@/lib/http/respond";
import { revokeKey } from "@/lib/auth/authenticate";
import { otherMethods } from "@/lib/http/methods";
import { revokeApiKey } from "@/lib/http/schemas/api-keys";

export const DELETE = route(revokeApiKey, async ({ params, rt, auth }) =>
  revokeKey(rt, auth.workspaceId, params.keyId),
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
