import { param, route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { getChat } from "@/lib/assistant/history";

export const GET = route(async ({ params, rt, auth }) => getChat(rt.db.prisma, auth.workspaceId, param(params, "baseId")));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
