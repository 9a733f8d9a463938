import { param, route } from "@/lib/http/respond";
import { listDeliveries, parseDeliveriesQuery } from "@/lib/webhooks/deliveries";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ req, params, rt, auth }) =>
  listDeliveries(rt.db.prisma, auth.workspaceId, param(params, "webhookId"), parseDeliveriesQuery(new URL(req.url))),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
