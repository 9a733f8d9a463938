import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { loadBase } from "@/lib/domain/base-context";
import { stillValid } from "@/lib/auth/still-valid";
import { claimStreamSlot, hubFor, openEventStream, SSE_HEADERS } from "@/lib/realtime";
import * as api from "@/lib/http/schemas/events";

/** Live changes of one base as Server-Sent Events (cell.updated, rows.changed, structure.changed, row.sheet.processed). */
export const GET = route(api.baseEvents, async ({ req, params, query, rt, auth }) => {
  const baseCtx = await loadBase(rt.db.prisma, auth.workspaceId, params.baseId);
  const release = claimStreamSlot(rt, auth.actorId);
  const stream = openEventStream(hubFor(rt), {
    onClose: release,
    workspaceId: auth.workspaceId,
    baseId: baseCtx.baseId,
    lastEventId: req.headers.get("last-event-id") ?? query.lastEventId ?? null,
    signal: req.signal,
    stillAuthorized: () => stillValid(rt.db.prisma, auth),
  });
  return new Response(stream, { headers: SSE_HEADERS });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
