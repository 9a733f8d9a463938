import { route } from "@/lib/http/respond";
import { createView, listViews } from "@/lib/domain/views/index";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/views";

export const GET = route(api.listViews, async ({ params, rt, auth }) =>
  listViews(rt.db.prisma, auth.workspaceId, params.baseId),
);

export const POST = route(api.createView, async ({ params, body, rt, auth }) =>
  createView(rt.db.prisma, auth.workspaceId, params.baseId, body),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
