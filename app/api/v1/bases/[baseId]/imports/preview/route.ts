import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { receiveUpload } from "@/lib/http/stream-upload";
import { previewImport } from "@/lib/imports/preview";
import * as api from "@/lib/http/schemas/imports";

export const POST = route(api.previewImport, async ({ req, params, query, rt, auth }) =>
  previewImport(rt, auth.workspaceId, params.baseId, query, (target) =>
    receiveUpload(req, target, { maxBytes: rt.config.imports.maxBytes, setting: "IMPORT_MAX_BYTES" }),
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
