import { param, route } from "@/lib/http/respond";
import { uploadFile } from "@/lib/files/upload";
import { otherMethods } from "@/lib/http/methods";

export const POST = route(async ({ req, params, rt, auth }) => uploadFile(rt, auth.workspaceId, param(params, "baseId"), req), { status: 201 });

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
