import { param, route } from "@/lib/http/respond";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { otherMethods } from "@/lib/http/methods";

export const DELETE = route(async ({ params, rt, auth }) => revokeApiKey(rt.db.prisma, auth.workspaceId, param(params, "keyId")));

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
