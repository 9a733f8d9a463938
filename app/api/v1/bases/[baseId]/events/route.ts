import { param, route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { loadBase } from "@/lib/domain/bases";
import { hubFor, openEventStream, SSE_HEADERS } from "@/lib/realtime";

/** Live changes of one base as Server-Sent Events (cell.updated, rows.changed, structure.changed, row.sheet.processed). */
export const GET = route(async ({ req, params, rt, auth }) => {
  const base = await loadBase(rt.db.prisma, auth.workspaceId, param(params, "baseId"));
  const stream = openEventStream(hubFor(rt), {
    workspaceId: auth.workspaceId,
    baseId: base.baseId,
    lastEventId: req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("lastEventId"),
    signal: req.signal,
  });
  return new Response(stream, { headers: SSE_HEADERS });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
