import { route } from "@/lib/http/respond";
import { inTransaction } from "@/lib/db/work";
import { createSecret, listSecrets } from "@/lib/secrets";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/secrets";

export const GET = route(api.listSecrets, async ({ rt, auth }) => ({
  secrets: await listSecrets(rt.db.prisma, auth.workspaceId),
}));

export const POST = route(api.createSecret, async ({ body, rt, auth, audit }) => {
  audit.targetId = body.name;
  if (body.replace) audit.summary = { replace: true };
  return inTransaction(rt, (w) => createSecret(w.tx, rt.secrets, auth.workspaceId, auth.actorId, body));
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
