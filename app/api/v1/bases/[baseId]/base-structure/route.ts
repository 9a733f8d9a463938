import { param, route } from "@/lib/http/respond";
import { getBaseStructure } from "@/lib/domain/bases";

export const GET = route(async ({ params, rt, auth }) => getBaseStructure(rt.db.prisma, auth.workspaceId, param(params, "baseId")));
