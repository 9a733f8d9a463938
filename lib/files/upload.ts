import path from "node:path";
import { rm } from "node:fs/promises";
import type { Runtime } from "../runtime.ts";
import { loadBase } from "../domain/base-context.ts";
import { assertBelow, QUOTAS } from "../domain/limits.ts";
import { inspectStoredFile } from "../extract/index.ts";
import { newId } from "../ids.ts";
import { extractLimitsFrom, toolLimitsFromConfig } from "../tools/index.ts";
import { fileUrl, filesDir, recordFile, type StoredFileView } from "./file-store.ts";

/** What the edge wrote to `target`: the upload, streamed to disk (lib/http/stream-upload.ts). */
export type ReceiveFile = (
  target: string,
) => Promise<{ name: string; contentType: string; size: number; sha256: string }>;

/**
 * Stores an uploaded file for a base. It is read once on the way in, in an extraction thread, so
 * an empty, encrypted, corrupt or unsupported file is refused with a 4xx now rather than failing
 * cells later; a refused file leaves nothing behind.
 */
export async function uploadFile(
  rt: Runtime,
  workspaceId: string,
  baseId: string,
  receive: ReceiveFile,
): Promise<StoredFileView> {
  const baseCtx = await loadBase(rt.db.prisma, workspaceId, baseId);
  const quota = async (size: number) => {
    const stored = await rt.db.prisma.storedFile.aggregate({
      where: { baseId: baseCtx.baseId },
      _count: true,
      _sum: { size: true },
    });
    assertBelow(stored._count, QUOTAS.filesPerBase, `A base holds at most ${QUOTAS.filesPerBase} files`);
    assertBelow((stored._sum.size ?? 0) + size - 1, QUOTAS.fileBytesPerBase, "A base holds at most 1 GiB of files");
  };
  await quota(1);
  const id = newId.file();
  const target = path.join(filesDir(rt), id);
  try {
    const file = await receive(target);
    await quota(file.size);
    const name = file.name.slice(0, 255);
    // Images are kept for models that can see them; everything else must yield text.
    const { detected } = await inspectStoredFile(
      { path: target, contentType: file.contentType, name },
      extractLimitsFrom(toolLimitsFromConfig(rt.config)),
    );
    const contentType = file.contentType === "application/octet-stream" ? detected.mediaType : file.contentType;
    await recordFile(rt, {
      id,
      workspaceId,
      baseId: baseCtx.baseId,
      name,
      contentType,
      size: file.size,
      sha256: file.sha256,
    });
    return { fileId: id, url: fileUrl(id), name, size: file.size, contentType };
  } catch (e) {
    await rm(target, { force: true });
    throw e;
  }
}
