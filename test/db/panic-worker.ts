// The embedded database's thread with a backend that a JavaScript exception will break
// mid-statement (the PANIC suite, through panic-process.ts): once the table is written, the file
// layer's next write throws, as a failed allocation would, and only once.
import { hostEmbedded } from "../../lib/db/embedded-host.ts";

await hostEmbedded({
  async opened(pglite) {
    await pglite.exec(
      "CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t SELECT generate_series(1, 60000); SET work_mem = '64kB'",
    );
    const fs = (pglite as unknown as { mod: { FS: { write: (...a: unknown[]) => unknown } } }).mod.FS;
    const write = fs.write;
    fs.write = () => {
      fs.write = write;
      throw new RangeError("Array buffer allocation failed");
    };
  },
});
