import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { isSecureRequest, safeNextPath } from "@/lib/auth/session-cookie";
import { flowCookie, ssoOrigin, ssoSettings, startSso } from "@/lib/auth/sso";
import * as api from "@/lib/http/schemas/sso";

/** Sends the browser to the single sign-on provider, remembering this sign-in in a short-lived cookie. */
export const GET = route(api.startSso, async ({ req, query, rt }) => {
  const settings = ssoSettings(rt);
  const { url, flow } = await startSso(settings, ssoOrigin(rt, req), safeNextPath(query.next));
  return new Response(null, {
    status: 302,
    headers: { location: url, "set-cookie": flowCookie(flow, isSecureRequest(req, rt.config.trustProxy)) },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
