import { route } from "@/lib/http/respond";
import { getBaseStructure } from "@/lib/domain/bases";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/bases";

export const GET = route(api.getBaseStructure, async ({ params, rt, auth }) =>
  getBaseStructure(rt.db.prisma, auth.workspaceId, params.baseId),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
