import { route } from "@/lib/http/respond";
import { appError } from "@/lib/errors";
import { principalForKey } from "@/lib/auth/authenticate";
import { createSession } from "@/lib/auth/session";
import { isSecureRequest, safeNextPath, sessionCookie } from "@/lib/auth/session-cookie";
import { otherMethods } from "@/lib/http/methods";

/**
 * UI_AUTO_LOGIN: for local single-user installs, the UI signs in with API_KEY without asking.
 * Off by default; when off this endpoint does not exist.
 */
export const GET = route(
  async ({ req, rt }) => {
    const key = rt.config.seedApiKey;
    if (!rt.config.uiAutoLogin || !key) throw appError("not_found");
    const session = await createSession(rt, await principalForKey(rt, key));
    const next = safeNextPath(new URL(req.url).searchParams.get("next"));
    return new Response(null, {
      status: 303,
      headers: { location: next, "set-cookie": sessionCookie(session.token, session.expiresAt, isSecureRequest(req)) },
    });
  },
  { public: true },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
