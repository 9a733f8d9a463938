import { param, route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { redeliver } from "@/lib/webhooks/deliveries";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(
  async ({ params, rt, auth }) =>
    inTransaction(rt, (w) => redeliver(w, auth.workspaceId, param(params, "webhookId"), param(params, "deliveryId"))),
  { status: 202 },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
