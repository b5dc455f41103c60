// Preloaded with `node --import` into a command under test: appends the URL of every module the
// process loads, one a line, to the file in LAMIS_TEST_MODULES_FILE. Each thread runs it too, and
// writes as it loads: a thread may be ended without an exit event.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.LAMIS_TEST_MODULES_FILE!;
registerHooks({
  load(url, context, nextLoad) {
    appendFileSync(file, `${url}\n`);
    return nextLoad(url, context);
  },
});
