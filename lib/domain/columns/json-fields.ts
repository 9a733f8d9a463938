import type { Tx } from "../../db/database.ts";
import type { ResolvedColumnFields } from "./input.ts";

/**
 * Writes a column's nullable JSON fields, its fill and run condition. In SQL rather than through
 * Prisma's client, whose SQL NULL for a JSON field is a value of the client package: the server's
 * entry must not load it.
 */
export async function writeJsonFields(tx: Tx, columnId: string, fields: Pick<ResolvedColumnFields, "fill" | "runIf">) {
  await tx.$executeRawUnsafe(
    `UPDATE columns SET fill = $2::jsonb, run_if = $3::jsonb WHERE id = $1`,
    columnId,
    fields.fill === null ? null : JSON.stringify(fields.fill),
    fields.runIf === null ? null : JSON.stringify(fields.runIf),
  );
}

/** The fields Prisma writes: all but the JSON ones that may be null (writeJsonFields). */
export const prismaFields = ({ runIf: _r, fill: _f, ...rest }: ResolvedColumnFields) => rest;
