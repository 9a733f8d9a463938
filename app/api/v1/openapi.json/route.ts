import { route } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";
import { openApiDocument } from "@/lib/http/openapi";
import * as api from "@/lib/http/schemas/openapi";

export const GET = route(api.getOpenApi, async () => openApiDocument());

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
