import { finished } from "node:stream/promises";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";

/**
 * `COPY (select) TO STDOUT` of a one-text-column SELECT (PostgreSQL only): the texts, back to back,
 * as the server sends them. One statement reads one snapshot, and the server formats while the
 * client reads, with no page boundaries to find again. The socket is read only as fast as the
 * consumer takes chunks, so memory stays at a socket's buffers. A consumer that stops early
 * cancels the statement, and the connection goes back to the pool.
 *
 * A COPY holds its connection for as long as its reader takes, so COPYs hold at most `slots` of
 * the pool's connections: beyond that the answer is undefined, and the caller reads pages, which
 * hand their connection back between statements. Iterate the chunks at once: the slot is taken
 * at the call and given back when they end.
 */
export type CopyOut = (select: string) => AsyncGenerator<Buffer> | undefined;

// Binary format rather than text: text would escape the backslashes, tabs, CRs and LFs of the
// texts (CSV fields hold line breaks), and undoing that costs a pass over every byte. Binary
// sends the bytes as they are, framed: a header, then per row a field count (2 bytes) and each
// field's length (4 bytes), then -1 as a count at the end.
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const HEADER_BYTES = SIGNATURE.length + 8;
/** How long a cancelled COPY may take to answer before its connection is dropped instead. */
const CANCEL_WAIT_MS = 5_000;

/** Strips the binary format's framing from a one-column COPY, chunk by chunk. */
export class TextColumnFrames {
  private rest: Buffer = Buffer.alloc(0);
  /** Bytes of the current field still to come. */
  private inField = 0;
  private headerRead = false;
  done = false;

  /** The texts' bytes in `chunk` (and whatever was left over from the last one). */
  take(chunk: Buffer): Buffer {
    const buf = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    const out: Buffer[] = [];
    let i = 0;
    if (!this.headerRead) {
      if (buf.length < HEADER_BYTES) return this.keep(buf, 0, out);
      if (!buf.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error("COPY: not binary COPY output");
      const extension = buf.readInt32BE(SIGNATURE.length + 4);
      if (buf.length < HEADER_BYTES + extension) return this.keep(buf, 0, out);
      i = HEADER_BYTES + extension;
      this.headerRead = true;
    }
    while (i < buf.length && !this.done) {
      if (this.inField > 0) {
        const n = Math.min(this.inField, buf.length - i);
        out.push(buf.subarray(i, i + n));
        this.inField -= n;
        i += n;
        continue;
      }
      if (buf.length - i < 2) break;
      const fields = buf.readInt16BE(i);
      if (fields === -1) {
        this.done = true;
        i += 2;
        break;
      }
      if (fields !== 1) throw new Error(`COPY: a row of ${fields} fields, not 1`);
      if (buf.length - i < 6) break;
      // -1 is NULL: no bytes, as an empty text.
      this.inField = Math.max(0, buf.readInt32BE(i + 2));
      i += 6;
    }
    return this.keep(buf, i, out);
  }

  private keep(buf: Buffer, from: number, out: Buffer[]): Buffer {
    // A copy: a small tail must not hold the whole socket chunk it came in.
    this.rest = from < buf.length ? Buffer.from(buf.subarray(from)) : Buffer.alloc(0);
    return out.length === 1 ? out[0] : Buffer.concat(out);
  }
}

export function copyOutOver(pool: pg.Pool, slots: number): CopyOut {
  let held = 0;
  return (select) => {
    if (held >= slots) return undefined;
    held++;
    return copyChunks(pool, select, () => held--);
  };
}

async function* copyChunks(pool: pg.Pool, select: string, done: () => void): AsyncGenerator<Buffer> {
  try {
    const client = await pool.connect();
    const stream = client.query(copyTo(`COPY (${select}) TO STDOUT (FORMAT binary)`));
    const frames = new TextColumnFrames();
    let ended = false;
    let broken = false;
    try {
      // Not destroyed when the consumer stops: the connection must first leave the COPY.
      for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
        const bytes = frames.take(chunk as Buffer);
        if (bytes.length > 0) yield bytes;
      }
      ended = true;
    } catch (e) {
      broken = true;
      throw e;
    } finally {
      if (!ended && !broken) broken = !(await cancel(pool, client, stream));
      client.release(broken || undefined);
    }
  } finally {
    done();
  }
}

type Backend = { processID: number | null };

/** Cancels a COPY in flight and reads it to its end; false when it did not end in time. */
async function cancel(pool: pg.Pool, client: pg.PoolClient, stream: NodeJS.ReadableStream): Promise<boolean> {
  const end = finished(stream as never).then(
    () => true,
    () => true,
  );
  stream.resume();
  const pid = (client as unknown as Backend).processID;
  if (pid !== null) await pool.query("SELECT pg_cancel_backend($1)", [pid]).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CANCEL_WAIT_MS);
  });
  try {
    return await Promise.race([end, late]);
  } finally {
    clearTimeout(timer);
  }
}
