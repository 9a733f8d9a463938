import { errorResponse, route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { isAppError } from "@/lib/errors";
import { createSession } from "@/lib/auth/session";
import { isSecureRequest, safeNextPath, sessionCookie } from "@/lib/auth/session-cookie";
import { clearedFlowCookie, finishSso, flowOf, memberForIdentity, ssoSettings } from "@/lib/auth/sso";
import * as api from "@/lib/http/schemas/sso";

/** The provider sends the browser back here: check its answer, then sign the person in. */
export const GET = route(api.ssoCallback, async ({ req, rt }) => {
  const secure = isSecureRequest(req, rt.config.trustProxy);
  const flow = flowOf(req);
  try {
    const settings = ssoSettings(rt);
    const member = await memberForIdentity(rt, settings, await finishSso(settings, req, flow));
    const session = await createSession(rt, { ...member, keyId: null });
    const headers = new Headers({ location: safeNextPath(flow?.next) });
    headers.append("set-cookie", clearedFlowCookie(secure));
    headers.append("set-cookie", sessionCookie(session.token, session.expiresAt, secure));
    return new Response(null, { status: 303, headers });
  } catch (e) {
    // A person gets the sign-in page, which says what happened; a script gets the JSON error.
    const res =
      isAppError(e) && e.code === "sso_failed" && (req.headers.get("accept") ?? "").includes("text/html")
        ? new Response(null, { status: 303, headers: { location: "/sign-in?error=sso_failed" } })
        : errorResponse(e);
    res.headers.append("set-cookie", clearedFlowCookie(secure));
    return res;
  }
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
