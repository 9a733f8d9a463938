import { route } from "@/lib/http/respond";
import { deleteSecret } from "@/lib/secrets";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/secrets";

export const DELETE = route(api.deleteSecret, async ({ params, rt, auth, audit }) => {
  audit.targetId = params.name;
  const { name } = await deleteSecret(rt.db.prisma, auth.workspaceId, params.name);
  return { name, deleted: true as const };
});

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
