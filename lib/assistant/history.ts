import type { Tx } from "../db/database.ts";
import { loadBase } from "../domain/base-context.ts";
import { newId } from "../ids.ts";
import type { ChatMessage } from "./messages.ts";

// The conversation stored per base, in the spec's message shape. Clients usually send the whole
// history back with each request (§4.6); the UI may send only the new message. Either way each
// message is stored once: the part of a request that repeats the end of the stored conversation
// is recognised and not stored again.

export async function loadHistory(tx: Tx, baseId: string): Promise<ChatMessage[]> {
  const rows = await tx.chatMessage.findMany({
    where: { baseId },
    orderBy: { seq: "asc" },
    select: { role: true, content: true },
  });
  return rows.map((r) => ({ role: r.role, content: r.content }) as ChatMessage);
}

export async function getChat(tx: Tx, workspaceId: string, baseId: string) {
  const baseCtx = await loadBase(tx, workspaceId, baseId);
  return { baseId: baseCtx.baseId, messages: await loadHistory(tx, baseCtx.baseId) };
}

/** Appends a turn: the request's messages not already stored, then the turn's new messages. */
export async function appendTurn(tx: Tx, baseId: string, request: ChatMessage[], turn: ChatMessage[]): Promise<void> {
  const stored = await loadHistory(tx, baseId);
  const repeated = overlap(stored, request);
  // One insert per message keeps seq in conversation order.
  for (const m of [...request.slice(repeated), ...turn]) {
    await tx.chatMessage.create({
      data: { id: newId.chatMessage(), baseId, role: m.role, content: m.content as object },
    });
  }
}

/** The length of the longest start of `request` that is also the end of `stored`. */
export function overlap(stored: ChatMessage[], request: ChatMessage[]): number {
  const a = stored.map(canonical);
  const b = request.map(canonical);
  for (let k = Math.min(a.length, b.length); k > 0; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) same = a[a.length - k + i] === b[i];
    if (same) return k;
  }
  return 0;
}

/** JSON with sorted keys, so key order never makes equal messages differ. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => x.localeCompare(y)))
      : v,
  );
}
