import { param, route } from "@/lib/http/respond";
import { uploadFile } from "@/lib/files/upload";

export const POST = route(async ({ req, params, rt, auth }) => uploadFile(rt, auth.workspaceId, param(params, "baseId"), req), { status: 201 });
