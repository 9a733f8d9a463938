import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { acceptsEventStream } from "@/lib/http/stream";
import { uiMessageStreamResponse } from "@/lib/http/ui-message-stream";
import { configureBase, configureBaseStream, configureInput } from "@/lib/assistant/configure";
import * as api from "@/lib/http/schemas/assistant";

export const POST = route(api.configureBase, async ({ req, body, rt, auth, audit }) => {
  const input = { ...configureInput(body), keyId: auth.keyId };
  audit.summary = { created: body.baseId === undefined };
  if (!acceptsEventStream(req)) return configureBase(rt, auth.workspaceId, input);
  const { stream, baseId } = await configureBaseStream(rt, auth.workspaceId, input);
  Object.assign(audit, { targetId: baseId, baseId });
  return uiMessageStreamResponse(stream, { "x-base-id": baseId });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
