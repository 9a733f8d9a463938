import { route } from "@/lib/http/respond";
import { previewHttpFill } from "@/lib/engine/fill/preview";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/fill-preview";

export const POST = route(api.previewFill, async ({ params, body, rt, auth }) =>
  previewHttpFill(rt, auth.workspaceId, params.baseId, body),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
