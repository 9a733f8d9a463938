import { route } from "@/lib/http/respond";
import { columnQuality } from "@/lib/domain/quality/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/quality";

export const GET = route(api.columnQuality, async ({ params, rt, auth }) =>
  columnQuality(rt.db.prisma, auth.workspaceId, params.baseId, params.columnId),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
