import type { Runtime } from "../runtime.ts";
import type { HostLookup } from "../net/index.ts";
import { webhookGuard } from "./endpoints.ts";
import { claimMessages, releaseMessage, type ClaimedMessage } from "./claim-messages.ts";
import { deliver } from "./deliver.ts";
import { recordAttempt, type OutcomePolicy } from "./attempt-outcome.ts";
import { createClaimLoop } from "../jobs/claim-loop.ts";

// The outbox relay: a background service, separate from the cell queue, so a slow or dead
// receiver never holds up enrichment. It wakes when a commit settles rows (or a redelivery is
// asked for) and polls for retries that came due and leases that ran out.

export interface RelayOptions {
  /** Tests only: resolve endpoint hostnames with a fake DNS at delivery. */
  lookup?: HostLookup;
  /** How often to look for due messages when nothing woke the relay (default 1000 ms). */
  pollMs?: number;
  /** Deliveries in flight across all endpoints (default 64); each endpoint has its own bound too. */
  maxInFlight?: number;
  /** How long a claim lasts before another relay may take the message (default 2 × timeout + 5 s). */
  leaseMs?: number;
  /** An endpoint failing continuously this long is disabled (default 5 days). */
  failureDisableMs?: number;
  /** Tests only: the jitter's randomness. */
  random?: () => number;
}

export interface WebhookRelay {
  wake(): void;
  stop(graceMs?: number): Promise<void>;
  stats(): { inFlight: number; attempts: number };
}

export const FIVE_DAYS_MS = 5 * 24 * 60 * 60 * 1000;

export async function startWebhookRelay(rt: Runtime, opts: RelayOptions = {}): Promise<WebhookRelay> {
  const prisma = rt.db.prisma;
  const cfg = rt.config.webhooks;
  const maxInFlight = Math.max(1, opts.maxInFlight ?? 64);
  const leaseMs = opts.leaseMs ?? cfg.timeoutMs * 2 + 5_000;
  const guard = webhookGuard(rt.config, opts.lookup);
  const policy: OutcomePolicy = {
    scheduleMs: cfg.retryScheduleMs,
    failureDisableMs: opts.failureDisableMs ?? FIVE_DAYS_MS,
    random: opts.random,
  };
  const running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let stopped = false;
  let attempts = 0;

  const run = (msg: ClaimedMessage) => {
    const abort = new AbortController();
    const done = (async () => {
      try {
        const result = await deliver(msg, {
          guard,
          timeoutMs: cfg.timeoutMs,
          connectTimeoutMs: rt.config.fetch.connectTimeoutMs,
          signal: abort.signal,
        });
        await recordAttempt(prisma, msg, result, policy);
        attempts++;
      } catch (e) {
        if (!abort.signal.aborted) console.error("[cellwright] webhook delivery crashed:", e);
        await releaseMessage(prisma, msg).catch(() => undefined);
      }
    })().finally(() => {
      running.delete(msg.id);
      pump();
    });
    running.set(msg.id, { abort, done });
  };

  const loop = createClaimLoop({
    what: "webhook messages",
    wanted: () => !stopped,
    room: () => maxInFlight - running.size,
    async claim(want) {
      const claimed = await claimMessages(prisma, want, cfg.concurrencyPerEndpoint, leaseMs);
      if (stopped) {
        for (const m of claimed) await releaseMessage(prisma, m).catch(() => undefined);
        return "hold";
      }
      for (const m of claimed) run(m);
      return claimed.length === want ? "more" : "done";
    },
  });
  const pump = loop.pump;

  const off = rt.bus.on((e) => {
    // The outbox announces the messages it writes; a row settling with no subscriber costs no claim.
    if (e.type === "webhooks.queued") pump();
  });
  const poll = setInterval(pump, opts.pollMs ?? 1_000);
  poll.unref();
  pump();

  const relay: WebhookRelay = {
    wake: pump,
    async stop(graceMs = 5_000) {
      if (stopped) return;
      stopped = true;
      off();
      clearInterval(poll);
      await loop.idle();
      const finished = Promise.all([...running.values()].map((r) => r.done));
      const timedOut = await Promise.race([
        finished.then(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref()),
      ]);
      // Aborted deliveries hand their messages back; they go out again on the next start.
      if (timedOut) for (const r of running.values()) r.abort.abort(new Error("shutting down"));
      await finished;
    },
    stats: () => ({ inFlight: running.size, attempts }),
  };
  rt.services.push({ name: "webhook relay", stop: () => relay.stop() });
  return relay;
}
