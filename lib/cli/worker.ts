// `npm run worker`: a worker process for scale-out. It runs enrichment (cells as queue-engine jobs)
// and webhook delivery against the PostgreSQL in DATABASE_URL, and serves no HTTP. Run as many as
// you like, on any machine that reaches the database. SIGTERM (or SIGINT) stops it gracefully:
// it stops claiming, lets running cells finish for a while, hands the rest back, then exits.
import { loadConfig } from "../config.ts";
import { createRuntime, stopRuntime } from "../runtime.ts";
import { startScaleOut } from "../jobs/pgboss-services.ts";
import { startEngine } from "../engine/engine.ts";
import { startWebhookRelay } from "../webhooks/relay.ts";

const config = loadConfig(process.env);
if (!config.databaseUrl) {
  console.error("error: npm run worker needs DATABASE_URL (PostgreSQL). The embedded database runs its work inside `npm start`.");
  process.exit(64);
}

const rt = await createRuntime(config);
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`[cellwright] worker ${signal}: stopping`);
  await stopRuntime(rt).catch((e) => console.error("[cellwright] worker shutdown failed:", e));
  process.exit(0);
};
process.once("SIGTERM", () => void stop("SIGTERM"));
process.once("SIGINT", () => void stop("SIGINT"));

await startScaleOut(rt);
const queue = await startEngine(rt);
// The same relay the server starts in-process: outbox messages are leased, so any number of
// workers deliver each message once.
await startWebhookRelay(rt);
console.log(`[cellwright] worker ready (${queue.owner}, ${config.ai.workerConcurrency} slots, ${config.ai.concurrency} across workers)`);
