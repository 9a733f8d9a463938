import { errorResponse } from "@/lib/http/respond";
import { appError } from "@/lib/errors";
import { getRuntime } from "@/lib/runtime";
import { otherMethods } from "@/lib/http/methods";

// The floor that `npm run bench:rows` measures Get Row against: a bare route handler with no
// authentication and no database, answering a constant row of the same shape and size. Served
// only when BENCH_FLOOR=true (the benchmark's own server); otherwise there is no such endpoint.
const BODY = JSON.stringify({
  id: "sr_0000000000000000floor",
  cells: {
    Company: "Company 1",
    Website: "https://company1.example",
    Employees: "1",
    Email: "info@company1.example",
    Founded: "2001-01-01",
    Notes: "n".repeat(40),
  },
});

export const dynamic = "force-dynamic";

export async function GET() {
  if (!(await getRuntime()).config.benchFloor) return errorResponse(appError("not_found"));
  return new Response(BODY, { headers: { "content-type": "application/json; charset=utf-8" } });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
