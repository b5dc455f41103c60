// Preloaded with `node --import` into a command under test: records the URL of every module the
// process loads and writes them, one a line, to the file in LAMIS_TEST_MODULES_FILE at exit.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.LAMIS_TEST_MODULES_FILE!;
const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => appendFileSync(file, loaded.join('\n') + '\n'));
