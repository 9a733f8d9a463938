import { route } from "@/lib/http/respond";
import { uploadFile } from "@/lib/files/upload";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/files";

export const POST = route(api.uploadFile, async ({ params, body, rt, auth }) => uploadFile(rt, auth.workspaceId, params.baseId, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
