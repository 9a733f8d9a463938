import { AuditPage } from "@/components/settings/audit-page";
import { requireSession } from "../../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Audit log · Settings · Cellwright" };

export default async function Page() {
  await requireSession("/settings/audit");
  return <AuditPage />;
}
