import { MembersPage } from "@/components/settings/members-page";
import { requireSession } from "../../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Members · Settings · Cellwright" };

export default async function Page() {
  await requireSession("/settings/members");
  return <MembersPage />;
}
