import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { getChat } from "@/lib/assistant/history";
import * as api from "@/lib/http/schemas/assistant";

export const GET = route(api.getChat, async ({ params, rt, auth }) =>
  getChat(rt.db.prisma, auth.workspaceId, params.baseId),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
