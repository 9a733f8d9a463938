import { appError } from "./errors.ts";

// The cursor of a list paged newest first by (time, id): opaque to clients, checked when read back.

export function encodeTimeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
}

export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    const date = typeof at === "string" ? new Date(at) : new Date(Number.NaN);
    if (typeof id === "string" && !Number.isNaN(date.getTime())) return { at: date, id };
  } catch {
    // fall through to the error below
  }
  throw appError("invalid_cursor", "cursor is not a cursor this endpoint returned.");
}
