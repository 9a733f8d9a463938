import { KeysPage } from "@/components/settings/keys-page";
import { requireSession } from "../../_server/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "API keys · Settings · Cellwright" };

export default async function Page() {
  await requireSession("/settings/keys");
  return <KeysPage />;
}
