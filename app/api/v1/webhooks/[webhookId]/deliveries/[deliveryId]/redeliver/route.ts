import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { redeliver } from "@/lib/webhooks/deliveries";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/webhooks";

export const POST = route(api.redeliver, async ({ params, rt, auth }) =>
  inTransaction(rt, (w) => redeliver(w, auth.workspaceId, params.webhookId, params.deliveryId)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
