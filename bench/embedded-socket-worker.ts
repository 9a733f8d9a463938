// bench:embedded-thread's option (b): PGlite served over the PostgreSQL wire protocol by
// @electric-sql/pglite-socket 0.1.3, in a worker thread of its own, on a 127.0.0.1 port.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { PGLITE_OPTIONS } from "../lib/db/embedded-host.ts";

const db = new PGlite(workerData.dir as string, PGLITE_OPTIONS);
await db.waitReady;
const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 16 });
await server.start();
parentPort!.postMessage({ port: Number(server.getServerConn().split(":")[1]) });
parentPort!.once("message", async () => {
  await server.stop();
  await db.close();
  parentPort!.postMessage("closed");
});
