import { param, route } from "@/lib/http/respond";
import { readBody } from "@/lib/http/body";
import { deleteEndpoint, getEndpoint, updateEndpoint, updateEndpointSchema } from "@/lib/webhooks/endpoints";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ params, rt, auth }) => getEndpoint(rt.db.prisma, auth.workspaceId, param(params, "webhookId")));

export const PATCH = route(async ({ req, params, rt, auth }) =>
  updateEndpoint(rt, auth.workspaceId, param(params, "webhookId"), await readBody(req, updateEndpointSchema)),
);

export const DELETE = route(async ({ params, rt, auth }) => deleteEndpoint(rt.db.prisma, auth.workspaceId, param(params, "webhookId")));

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
