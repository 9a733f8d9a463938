import { route } from "@/lib/http/respond";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/webhooks";

export const GET = route(api.getWebhook, async ({ params, rt, auth }) =>
  getEndpoint(rt.db.prisma, auth.workspaceId, params.webhookId),
);

export const PATCH = route(api.updateWebhook, async ({ params, body, rt, auth }) =>
  updateEndpoint(rt, auth.workspaceId, params.webhookId, body),
);

export const DELETE = route(api.deleteWebhook, async ({ params, rt, auth }) =>
  deleteEndpoint(rt.db.prisma, auth.workspaceId, params.webhookId),
);

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
