// The embedded database's worker thread (started by embedded-thread.ts): all of it is embedded-host.ts.
import { hostEmbedded } from "./embedded-host.ts";

await hostEmbedded();
