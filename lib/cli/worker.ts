// `npm run worker`: a worker process for scale-out. It runs enrichment (cells as queue-engine jobs)
// and webhook delivery against the PostgreSQL in DATABASE_URL, and serves no HTTP. Run as many as
// you like, on any machine that reaches the database. SIGTERM (or SIGINT) stops it gracefully:
// it stops claiming, lets running cells finish for a while, hands the rest back, then exits.
// Outbox messages are leased, so any number of workers deliver each message once.
import { type Config, loadConfig } from "../config.ts";
import { createRuntime } from "../runtime.ts";
import { startWorkers, stopOnSignals } from "../boot.ts";
import { secretsKeyProblem } from "../secrets/key.ts";

let config: Config;
try {
  config = loadConfig(process.env);
} catch (e) {
  // One line, as npm start says it: a bad setting (SECRETS_KEY's form, say) is not a crash.
  console.error(`error: ${(e as Error).message}`);
  process.exit(64);
}
if (!config.databaseUrl) {
  console.error(
    "error: npm run worker needs DATABASE_URL (PostgreSQL). The embedded database runs its work inside `npm start`.",
  );
  process.exit(64);
}
const keyProblem = secretsKeyProblem(config);
if (keyProblem) {
  console.error(`error: ${keyProblem}`);
  process.exit(64);
}

const rt = await createRuntime(config, { queue: "pg-boss" });
stopOnSignals(rt, "worker");
await startWorkers(rt);
console.log(
  `[cellwright] worker ready (${config.ai.workerConcurrency} slots, ${config.ai.concurrency} across workers)`,
);
