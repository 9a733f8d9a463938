import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { getImport } from "@/lib/imports/store";
import * as api from "@/lib/http/schemas/imports";

export const GET = route(api.getImport, async ({ params, rt, auth }) =>
  getImport(rt.db.prisma, auth.workspaceId, params.baseId, params.importId),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
