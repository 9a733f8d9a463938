import { param, route } from "@/lib/http/respond";
import { revokeKey } from "@/lib/auth/authenticate";
import { otherMethods } from "@/lib/http/methods";

export const DELETE = route(async ({ params, rt, auth }) => revokeKey(rt, auth.workspaceId, param(params, "keyId")));

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
