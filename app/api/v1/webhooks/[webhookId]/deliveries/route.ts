import { route } from "@/lib/http/respond";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/webhooks";

export const GET = route(api.listDeliveries, async ({ params, query, rt, auth }) =>
  listDeliveries(rt.db.prisma, auth.workspaceId, params.webhookId, query),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
