import { preload } from "react-dom";
import { BaseView } from "@/components/grid/base-view";
import { firstRequests } from "@/components/grid/first-requests";
import { ChatPanel } from "@/components/chat/chat-panel";
import { requireSession } from "../../_server/session";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ baseId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function BasePage({ params, searchParams }: Props) {
  const { baseId } = await params;
  await requireSession(`/bases/${encodeURIComponent(baseId)}`);
  // The grid's first requests start with the page rather than after its scripts have run. A
  // query in the URL makes the rows a Query Rows POST, which is not preloaded.
  const preloaded = Object.keys(await searchParams).length === 0 ? firstRequests(baseId) : [];
  for (const href of preloaded) preload(href, { as: "fetch", crossOrigin: "anonymous" });
  // Keyed by base so that moving between bases starts from a fresh row store.
  return <BaseView key={baseId} baseId={baseId} side={<ChatPanel baseId={baseId} />} />;
}
