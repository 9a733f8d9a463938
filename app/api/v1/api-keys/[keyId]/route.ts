import { route } from "@/lib/http/respond";
import { revokeKey, updateKey } from "@/lib/auth/authenticate";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/api-keys";

export const PATCH = route(api.updateApiKey, async ({ params, body, rt, auth }) =>
  updateKey(rt, auth, params.keyId, body),
);

export const DELETE = route(api.revokeApiKey, async ({ params, rt, auth }) => revokeKey(rt, auth, params.keyId));

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
