// The maritime watch as the service attaches it: a reference data load that fails (the service
// closing while it ran) settles `loaded` and is never an unhandled rejection, asked for or not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MaritimeWatch, type MaritimeServices } from './watch.ts';

test('a failed load settles `loaded` and is no unhandled rejection when no watcher asked', async () => {
  const unhandled: unknown[] = [];
  const heard = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', heard);
  try {
    const watch = new MaritimeWatch();
    watch.attach({} as MaritimeServices, Promise.reject(new DOMException('This operation was aborted', 'AbortError')));
    await nextTurn();
    await nextTurn();
    assert.deepEqual(unhandled, []);
    await watch.loaded();
  } finally {
    process.off('unhandledRejection', heard);
  }
});
