import path from "node:path";
import { readFile, rm } from "node:fs/promises";
import type { Config } from "../config.ts";
import type { Prisma } from "../db/database.ts";
import type { FileStore } from "../tools/index.ts";
import { appError } from "../errors.ts";

/** What the file store needs of the runtime: where the data directory is, and the database. */
type FilesRt = { config: Pick<Config, "dataDir">; db: { prisma: Prisma } };

export const filesDir = (rt: Pick<FilesRt, "config">) => path.resolve(rt.config.dataDir, "files");
export const fileUrl = (id: string) => `/api/v1/files/${id}`;

export interface StoredFileView {
  fileId: string;
  url: string;
  name: string;
  size: number;
  contentType: string;
}

/** Records a file that the upload wrote under DATA_DIR/files, named by its id. */
export async function recordFile(
  rt: FilesRt,
  file: {
    id: string;
    workspaceId: string;
    baseId: string;
    name: string;
    contentType: string;
    size: number;
    sha256: string;
  },
): Promise<void> {
  await rt.db.prisma.storedFile.create({ data: { ...file, storagePath: file.id } });
}

export async function readStoredFile(rt: FilesRt, fileId: string, workspaceId: string) {
  const row = await rt.db.prisma.storedFile.findFirst({ where: { id: fileId, workspaceId } });
  if (!row) throw appError("file_not_found", `No file "${fileId}" in this workspace.`);
  const bytes = await readFile(path.join(filesDir(rt), path.basename(row.storagePath))).catch(() => {
    throw appError("file_not_found", `The file "${fileId}" is missing from storage.`);
  });
  return { name: row.name, contentType: row.contentType, bytes };
}

/** The file-analysis tool's view of uploaded files, scoped to the cell's workspace. */
export const storedFiles = (rt: FilesRt): FileStore => ({
  read: (fileId, workspaceId) => readStoredFile(rt, fileId, workspaceId),
});

export interface FileDownload {
  bytes: Buffer;
  contentType: string;
  filename: string;
}

/** A stored file for download; lib/http/download.ts serves it as an attachment. */
export async function fileDownload(rt: FilesRt, workspaceId: string, fileId: string): Promise<FileDownload> {
  const file = await readStoredFile(rt, fileId, workspaceId);
  return { bytes: file.bytes, contentType: file.contentType, filename: file.name };
}

/** Removes the bytes of released files (their records are already gone); a missing file is fine. */
export async function removeStoredFiles(rt: Pick<FilesRt, "config">, storagePaths: readonly string[]): Promise<void> {
  const dir = filesDir(rt);
  await Promise.all(storagePaths.map((p) => rm(path.join(dir, path.basename(p)), { force: true })));
}
