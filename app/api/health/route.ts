import { route } from "@/lib/http/respond";
import { healthReport } from "@/lib/health";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(
  async ({ rt }) => {
    const report = await healthReport(rt);
    return Response.json(report, { status: report.ok ? 200 : 503 });
  },
  { public: true },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
