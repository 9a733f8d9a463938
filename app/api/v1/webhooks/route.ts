import { route } from "@/lib/http/respond";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/webhooks";

export const GET = route(api.listWebhooks, async ({ rt, auth }) => ({
  webhooks: await listEndpoints(rt.db.prisma, auth.workspaceId),
}));

export const POST = route(api.createWebhook, async ({ body, rt, auth }) => createEndpoint(rt, auth.workspaceId, body));

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
