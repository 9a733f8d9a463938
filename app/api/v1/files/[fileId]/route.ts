import { route } from "@/lib/http/respond";
import { downloadResponse } from "@/lib/http/download";
import { fileDownload } from "@/lib/files/file-store";
import { otherMethods } from "@/lib/http/methods";
import * as api from "@/lib/http/schemas/files";

export const GET = route(api.downloadFile, async ({ params, rt, auth }) =>
  downloadResponse(await fileDownload(rt, auth.workspaceId, params.fileId)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
