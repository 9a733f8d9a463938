import { param, route } from "@/lib/http/respond";
import { fileDownload } from "@/lib/files/file-store";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(async ({ params, rt, auth }) => fileDownload(rt, auth.workspaceId, param(params, "fileId")));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
