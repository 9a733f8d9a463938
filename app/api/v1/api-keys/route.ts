import { route } from "@/lib/http/respond";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/api-keys";

export const GET = route(api.listApiKeys, async ({ rt, auth }) => ({
  apiKeys: await listApiKeys(rt.db.prisma, auth.workspaceId),
}));

export const POST = route(api.createApiKey, async ({ body, rt, auth }) =>
  createApiKey(rt.db.prisma, auth.workspaceId, body.name),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
