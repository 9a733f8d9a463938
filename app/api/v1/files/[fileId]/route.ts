import { param, route } from "@/lib/http/respond";
import { fileDownload } from "@/lib/files/file-store";

export const GET = route(async ({ params, rt, auth }) => fileDownload(rt, auth.workspaceId, param(params, "fileId")));
