import { param, route } from "@/lib/http/respond";
import { revokeApiKey } from "@/lib/auth/api-keys";

export const DELETE = route(async ({ params, rt, auth }) => revokeApiKey(rt.db.prisma, auth.workspaceId, param(params, "keyId")));
