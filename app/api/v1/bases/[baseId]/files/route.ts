import { route } from "@/lib/http/respond";
import { uploadFile } from "@/lib/files/upload";
import { otherMethods } from "@/lib/http/methods";
import { receiveUpload } from "@/lib/http/stream-upload";
import * as api from "@/lib/http/schemas/files";

export const POST = route(api.uploadFile, async ({ req, params, rt, auth }) =>
  uploadFile(rt, auth.workspaceId, params.baseId, (target) =>
    receiveUpload(req, target, { maxBytes: rt.config.files.maxBytes, setting: "FILE_MAX_BYTES", multipartOnly: true }),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
