import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes come from a pooled buffer, each byte handed out once: one call into the crypto
// binding per 4 KiB rather than one per id (a call costs tens of microseconds, and the engine
// makes several ids and a fence nonce for every cell).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/** Cryptographically random bytes; the buffer is the caller's, never handed out again. */
export function pooledRandomBytes(n: number): Buffer {
  if (n > POOL_BYTES) return randomBytes(n);
  if (used + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  used += n;
  return pool.subarray(used - n, used);
}

/** Uniformly random base62 string (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of pooledRandomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const newId = {
  base: () => randomBase62(8),
  sheet: () => `sheet_${randomBase62(20)}`,
  column: () => `scol_${randomBase62(20)}`,
  row: () => `sr_${randomBase62(20)}`,
  workspace: () => `ws_${randomBase62(16)}`,
  apiKey: () => `key_${randomBase62(16)}`,
  secret: () => `sec_${randomBase62(16)}`,
  apiKeySecret: () => `cw_${randomBase62(40)}`,
  credit: () => `cr_${randomBase62(20)}`,
  // One attempt of a cell (table cell_runs); stored ids keep the prefix they were made with.
  cellAttempt: () => `cellrun_${randomBase62(20)}`,
  chatMessage: () => `msg_${randomBase62(20)}`,
  webhook: () => `wh_${randomBase62(16)}`,
  webhookMessage: () => `msg_${randomBase62(24)}`,
  webhookAttempt: () => `att_${randomBase62(20)}`,
  run: () => `run_${randomBase62(20)}`,
  file: () => `file_${randomBase62(20)}`,
  view: () => `view_${randomBase62(16)}`,
  reviewAction: () => `rev_${randomBase62(20)}`,
  evaluation: () => `eval_${randomBase62(20)}`,
  find: () => `find_${randomBase62(20)}`,
  schedule: () => `sch_${randomBase62(16)}`,
  findCandidate: () => `fc_${randomBase62(20)}`,
  // Unique within its cell, where it is looked up; short, as a cell keeps many.
  historyEntry: () => `chg_${randomBase62(12)}`,
  user: () => `usr_${randomBase62(16)}`,
  invitation: () => `inv_${randomBase62(16)}`,
  auditEntry: () => `aud_${sortableStamp()}${randomBase62(8)}`,
};

let lastStamp = 0;
let sequence = 0;

/**
 * 13 characters that sort as they were made in this process: the millisecond (base 36, 9 wide),
 * then a counter within it. Audit entries page by (at, id): two made in one millisecond keep
 * their order.
 */
function sortableStamp(now = Date.now()): string {
  if (now === lastStamp) sequence++;
  else {
    lastStamp = now;
    sequence = 0;
  }
  return now.toString(36).padStart(9, "0") + sequence.toString(36).padStart(4, "0");
}
