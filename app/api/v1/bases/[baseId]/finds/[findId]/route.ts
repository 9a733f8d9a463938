import { route } from "@/lib/http/respond";
import { findView } from "@/lib/domain/finds/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/finds";

export const GET = route(api.getFind, async ({ params, rt, auth }) =>
  findView(rt.db.prisma, auth.workspaceId, params.baseId, params.findId),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
