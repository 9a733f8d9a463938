import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Runtime } from "../../runtime.ts";
import { inTransaction } from "../../db/work.ts";
import {
  claimFinds,
  finishFind,
  releaseFind,
  renewFindLease,
  retryFind,
  FIND_LIMITS,
  type FindJob,
} from "../../domain/finds/index.ts";
import { classifyError } from "../llm/classify-error.ts";
import { InsufficientCredits } from "../../domain/cells/index.ts";
import { backoffMs } from "../backoff.ts";
import { toolLimitsFromConfig } from "../../tools/index.ts";
import type { ToolContext } from "../../tools/types.ts";
import type { RateLimiter } from "../rate-limit.ts";
import { workFind } from "./work-find.ts";

// The find worker of a process that runs background work: it claims finds with work left, a few
// at a time, and works each until it stops or must wait. A find's steps are charged under keys of
// their own and its rows added under its candidates' leases, so a find taken over after a crash
// goes on where it was, paying nothing twice and adding no row twice.

const POLL_MS = 1_000;
const MAX_FINDS = 2;

export function startFindWorker(
  rt: Runtime,
  deps: { limiter: RateLimiter; tools: Omit<ToolContext, "instructions" | "inputs" | "config" | "limits"> },
): { stop: () => Promise<void> } {
  const owner = `${hostname()}:${process.pid}:find:${randomBytes(4).toString("hex")}`;
  const prisma = rt.db.prisma;
  const inFlight = new Map<string, AbortController>();
  let stopped = false;
  let claiming: Promise<void> | undefined;
  // One process owns the embedded database: every lease there is a dead process's.
  const ready = rt.db.exclusive
    ? prisma.$executeRawUnsafe(`UPDATE finds SET lease_owner = NULL, lease_until = NULL WHERE phase <> 'done'`)
    : Promise.resolve(0);
  const tools = { ...deps.tools, config: rt.config, limits: toolLimitsFromConfig(rt.config) };

  const tick = () => {
    if (stopped || claiming || inFlight.size >= MAX_FINDS) return;
    claiming = (async () => {
      try {
        await ready;
        const finds = await claimFinds(prisma, owner, MAX_FINDS - inFlight.size, rt.config.ai.leaseMs);
        for (const find of finds) start(find);
      } catch (e) {
        if (!stopped) console.error("[cellwright] the find worker failed to claim:", e);
      } finally {
        claiming = undefined;
      }
    })();
  };

  const start = (find: FindJob) => {
    const ctl = new AbortController();
    inFlight.set(find.id, ctl);
    void workFind({ rt, limiter: deps.limiter, tools, owner }, find, ctl.signal)
      .catch(async (e) => {
        if (stopped) return;
        const c =
          e instanceof InsufficientCredits
            ? {
                code: "insufficient_credits",
                message: "The workspace has no credits left; top up, then extend the find.",
                retryable: false,
                retryAfterMs: undefined,
              }
            : classifyError(e);
        if (
          c.retryable &&
          (await retryFind(
            prisma,
            find.id,
            owner,
            backoffMs(find.attempts + 1, rt.config.ai.retryBaseMs, c.retryAfterMs),
            FIND_LIMITS.attempts,
          ))
        )
          return;
        if (c.code === "internal_error") console.error(`[cellwright] find ${find.id} failed:`, e);
        await inTransaction(rt, (w) => finishFind(w, find, owner, "error", { code: c.code, message: c.message })).catch(
          (err) => console.error(`[cellwright] ending find ${find.id} failed:`, err),
        );
      })
      .finally(() => {
        inFlight.delete(find.id);
        tick();
      });
  };

  const poll = setInterval(tick, POLL_MS);
  // A verification may outlast a lease (its pages and its model call): the leases of the finds
  // being worked are renewed meanwhile, and a find whose lease was lost stops here.
  const leaseMs = rt.config.ai.leaseMs;
  const heartbeat = setInterval(
    () => {
      for (const [id, ctl] of inFlight)
        void renewFindLease(prisma, id, owner, leaseMs).then(
          (held) => held || ctl.abort(new Error("lease lost")),
          () => undefined,
        );
    },
    Math.max(250, leaseMs / 3),
  );
  const off = rt.bus.on((e) => {
    if (e.type === "finds.available") tick();
  });
  tick();

  const stop = async () => {
    stopped = true;
    clearInterval(poll);
    clearInterval(heartbeat);
    off();
    await claiming;
    for (const ctl of inFlight.values()) ctl.abort(new Error("shutting down"));
    // Handed back at once, for the next worker (or this one, restarted) to go on with.
    for (const id of inFlight.keys()) await releaseFind(prisma, id, owner).catch(() => undefined);
  };
  rt.services.push({ name: "find worker", stop });
  return { stop };
}
