import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyStats, Outbox, type OutboxOptions } from './outbox.ts';

/** An outbox writing into an array, with a socket buffer the test fills and drains by hand. */
function outbox(options: Partial<OutboxOptions> = {}) {
  const written: string[] = [];
  const socket = { buffered: 0, slow: 0, due: 0 };
  const stats = emptyStats();
  const box = new Outbox({
    softLimitBytes: 100,
    hardLimitBytes: 1000,
    slowCloseMs: 5000,
    intervalMs: 1000,
    write: (frame) => written.push(frame.toString()),
    buffered: () => socket.buffered,
    onSlow: () => socket.slow++,
    onDue: () => socket.due++,
    stats,
    ...options,
  });
  return { box, written, socket, stats };
}

const frame = (text: string) => Buffer.from(text);

test('a vessel gets one position per interval, the latest, and the others are coalesced', () => {
  const { box, written, stats } = outbox();
  box.position(1, frame('1@0'), 0);
  box.position(2, frame('2@0'), 0);
  box.position(1, frame('1@300'), 300);
  box.position(1, frame('1@600'), 600);
  assert.deepEqual(written, ['1@0', '2@0']);
  box.tick(900);
  assert.deepEqual(written, ['1@0', '2@0']);
  box.tick(1000);
  assert.deepEqual(written, ['1@0', '2@0', '1@600']);
  assert.equal(stats.coalesced, 1);
  assert.equal(stats.frames.position, 3);
  // Vessel 2 sent nothing more: its interval ended, so its next position goes at once.
  box.position(2, frame('2@1100'), 1100);
  // Vessel 1's new interval started when its pending position went out.
  box.position(1, frame('1@1500'), 1500);
  assert.deepEqual(written.slice(3), ['2@1100']);
  box.tick(2000);
  assert.deepEqual(written.slice(3), ['2@1100', '1@1500']);
  assert.equal(box.pendingCount, 0);
});

test('a position arriving after the interval ended, before the tick, replaces the one that waited', () => {
  const { box, written, stats } = outbox();
  box.position(7, frame('old'), 0);
  box.position(7, frame('waiting'), 500);
  box.position(7, frame('newest'), 1200);
  box.tick(1300);
  box.tick(2300);
  assert.deepEqual(written, ['old', 'newest']);
  assert.equal(stats.coalesced, 1);
});

test('the outbox asks for the tick when a position waits, a frame is held or the socket is past the hard bound, and is done once none is left', () => {
  const { box, socket } = outbox({ write: () => {}, hardLimitBytes: 300 });
  box.position(1, frame('a'), 0);
  assert.deepEqual([socket.due, box.due], [0, false], 'sent at once: nothing for the tick');
  box.position(1, frame('b'), 100);
  box.position(1, frame('c'), 200);
  assert.deepEqual([socket.due, box.due], [1, true], 'a position waits for its interval: asked once');
  box.tick(1000);
  assert.equal(box.due, false);

  socket.buffered = 200;
  box.position(2, frame('d'), 1000);
  assert.deepEqual([socket.due, box.due], [2, true], 'held for the slow socket');
  socket.buffered = 0;
  box.tick(1100);
  assert.equal(box.due, false, 'drained');

  // A write that takes the socket past the hard bound: the tick watches how long it stays there.
  const big = outbox({ hardLimitBytes: 300, write: (written) => (big.socket.buffered += written.length) });
  big.box.position(3, frame('e'.repeat(400)), 0);
  assert.deepEqual([big.socket.due, big.box.due], [1, true]);
  big.box.tick(100);
  assert.equal(big.box.due, true);
  big.socket.buffered = 0;
  big.box.tick(200);
  assert.equal(big.box.due, false);
});

test('static data goes out at once, outside the pacing', () => {
  const { box, written, stats } = outbox();
  box.position(3, frame('p'), 0);
  box.static(3, frame('s1'));
  box.static(3, frame('s2'));
  assert.deepEqual(written, ['p', 's1', 's2']);
  assert.equal(stats.frames.static, 2);
});

test('past the soft bound only the latest frame per vessel is held, and it goes out as the socket drains', () => {
  const { box, written, socket, stats } = outbox({ intervalMs: 0 });
  box.position(1, frame('1a'), 0);
  socket.buffered = 150;
  box.position(1, frame('1b'), 1);
  box.position(2, frame('2a'), 2);
  box.static(1, frame('1s'));
  box.position(1, frame('1c'), 3);
  assert.deepEqual(written, ['1a']);
  assert.equal(box.heldCount, 3);
  assert.equal(box.waitingBytes, 150 + 6);
  assert.equal(stats.dropped, 1);
  box.tick(10);
  assert.deepEqual(written, ['1a']);
  socket.buffered = 0;
  box.tick(20);
  assert.deepEqual(written, ['1a', '1c', '2a', '1s']);
  assert.equal(box.heldCount, 0);
  assert.equal(box.waitingBytes, 0);
});

test('draining stops again once the socket is past the soft bound', () => {
  const socket = { buffered: 200 };
  const written: string[] = [];
  const { box } = outbox({
    intervalMs: 0,
    buffered: () => socket.buffered,
    write: (f) => {
      written.push(f.toString());
      socket.buffered += 60;
    },
  });
  for (let mmsi = 1; mmsi <= 5; mmsi++) box.position(mmsi, frame(`v${mmsi}`), mmsi);
  socket.buffered = 0;
  box.tick(10);
  // Written with 0 and 60 bytes waiting; with 120 the rest is held.
  assert.deepEqual(written, ['v1', 'v2']);
  assert.equal(box.heldCount, 3);
});

test('a consumer past the hard bound for the slow-close time is given up, once', () => {
  const { box, socket } = outbox({ intervalMs: 0 });
  socket.buffered = 2000;
  box.tick(0);
  box.tick(4000);
  assert.equal(socket.slow, 0);
  // It recovered for a moment: the time counts again from the next excess.
  socket.buffered = 500;
  box.tick(4500);
  socket.buffered = 2000;
  box.tick(5000);
  box.tick(9900);
  assert.equal(socket.slow, 0);
  box.tick(10_000);
  box.tick(11_000);
  assert.equal(socket.slow, 1);
});

test('held frames count towards the hard bound', () => {
  const { box, socket } = outbox({ intervalMs: 0, hardLimitBytes: 300 });
  socket.buffered = 101;
  for (let mmsi = 1; mmsi <= 50; mmsi++) box.position(mmsi, frame('x'.repeat(10)), 0);
  assert.equal(box.waitingBytes, 101 + 500);
  box.tick(0);
  box.tick(5000);
  assert.equal(socket.slow, 1);
});

test('a new subscription drops what waited and paces with its own interval', () => {
  const { box, written, socket } = outbox();
  box.position(1, frame('a'), 0);
  box.position(1, frame('b'), 100);
  socket.buffered = 500;
  box.position(2, frame('c'), 100);
  box.restart(10_000);
  socket.buffered = 0;
  box.tick(1000);
  box.position(1, frame('d'), 1000);
  box.tick(5000);
  assert.deepEqual(written, ['a']);
  box.tick(10_000);
  assert.deepEqual(written, ['a', 'd']);
});
