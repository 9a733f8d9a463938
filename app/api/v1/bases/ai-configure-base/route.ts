import { route } from "@/lib/http/respond";
import { readJson } from "@/lib/http/body";
import { otherMethods } from "@/lib/http/methods";
import { configureBase, configureBaseStream, MAX_CONFIGURE_BODY_BYTES, parseConfigureRequest, wantsStream } from "@/lib/assistant/configure";

export const POST = route(async ({ req, rt, auth }) => {
  const input = parseConfigureRequest(await readJson(req, MAX_CONFIGURE_BODY_BYTES));
  return wantsStream(req) ? configureBaseStream(rt, auth.workspaceId, input) : configureBase(rt, auth.workspaceId, input);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
