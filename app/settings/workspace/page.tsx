import { WorkspacePage } from "@/components/settings/workspace-page";
import { requireSession } from "../../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Workspace · Settings · Cellwright" };

export default async function Page() {
  await requireSession("/settings/workspace");
  return <WorkspacePage />;
}
