import { param, route } from "@/lib/http/respond";
import { getBaseStructure } from "@/lib/domain/bases";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ params, rt, auth }) => getBaseStructure(rt.db.prisma, auth.workspaceId, param(params, "baseId")));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
