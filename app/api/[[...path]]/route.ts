import { errorResponse } from "@/lib/http/respond";
import { appError } from "@/lib/errors";

// Unknown paths under /api answer in JSON like every other API error, never with an HTML page.
const notFound = async () => errorResponse(appError("not_found"));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
