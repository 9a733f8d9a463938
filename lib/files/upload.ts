import type { Runtime } from "../runtime.ts";
import { appError } from "../errors.ts";
import { loadBase } from "../domain/base-context.ts";
import { assertBelow, QUOTAS } from "../domain/limits.ts";
import { detectKind, extractContent } from "../extract/index.ts";
import { extractLimitsFrom, toolLimitsFromConfig } from "../tools/index.ts";
import { saveFile, type StoredFileView } from "./file-store.ts";

/** One uploaded file, as the edge read it from the request. */
export interface UploadedPart {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * Stores an uploaded file for a base. It is extracted once on the way in, so an empty, encrypted,
 * corrupt or unsupported file is refused with a 4xx now rather than failing cells later. The
 * multipart body is read at the edge (lib/http/multipart.ts).
 */
export async function uploadFile(rt: Runtime, workspaceId: string, baseId: string, part: UploadedPart): Promise<StoredFileView> {
  const base = await loadBase(rt.db.prisma, workspaceId, baseId);
  if (part.bytes.length === 0) throw appError("empty_file", "The file is empty.");
  const stored = await rt.db.prisma.storedFile.aggregate({ where: { baseId: base.baseId }, _count: true, _sum: { size: true } });
  assertBelow(stored._count, QUOTAS.filesPerBase, `A base holds at most ${QUOTAS.filesPerBase} files`);
  assertBelow((stored._sum.size ?? 0) + part.bytes.length - 1, QUOTAS.fileBytesPerBase, "A base holds at most 1 GiB of files");
  const detected = detectKind(part.bytes, part.contentType, part.name);
  // Images are kept for models that can see them; everything else must yield text.
  if (detected.kind !== "image") {
    await extractContent({ bytes: part.bytes, contentType: part.contentType, name: part.name }, extractLimitsFrom(toolLimitsFromConfig(rt.config)));
  }
  const contentType = part.contentType === "application/octet-stream" ? detected.mediaType : part.contentType;
  return saveFile(rt, { workspaceId, baseId: base.baseId }, { name: part.name.slice(0, 255), contentType, bytes: part.bytes });
}
