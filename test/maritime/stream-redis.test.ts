// Two instances over one Redis (and one storage): an update ingested on either reaches the streams
// of both, and an organisation's stream cap holds across them.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { positionReport } from '../../src/maritime/vessels/fixtures.ts';
import { redisUrl, skipRedis } from '../support/backends.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { organisationKey } from '../support/organisations.ts';
import { TestStream, refusedUpgrade, sleep, upload } from './stream-support.ts';

describe('the AIS stream on two instances over Redis', { skip: skipRedis, timeout: 60_000 }, () => {
  let first: TestServer;
  let second: TestServer;
  // Other test runs may share the Redis: these vessels are this run's own.
  const base = 244_000_000 + randomInt(0, 900) * 1000;
  const [here, there] = [base + 1, base + 2];

  before(async () => {
    first = await startTestServer({ config: { redisUrl } });
    second = await startTestServer({ config: { redisUrl, dataDir: first.config.dataDir } });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  test('an update ingested on one instance reaches subscribers on both', async () => {
    const onFirst = await TestStream.subscribed(first.url, { mmsi: [here, there], updateIntervalSec: 1 });
    const onSecond = await TestStream.subscribed(second.url, { mmsi: [here, there], updateIntervalSec: 1 });
    await upload(first.url, [positionReport(here, 51.5, 3.5)]);
    await upload(second.url, [positionReport(there, 52.5, 4.5)]);
    for (const stream of [onFirst, onSecond]) {
      const frames = [await stream.next('position'), await stream.next('position')];
      assert.deepEqual(frames.map((f) => f.data.mmsi).sort(), [here, there]);
    }
    await sleep(200);
    for (const stream of [onFirst, onSecond]) assert.equal(stream.of('position').length, 2, 'each update arrived once');
    await Promise.all([onFirst.close(), onSecond.close()]);
  });

  test("a Pro organisation's 5 streams are counted across both instances", async () => {
    const pro = await organisationKey(first.config, 'pro');
    const streams = [
      ...(await Promise.all([1, 2, 3].map(() => TestStream.ready(first.url, pro.headers)))),
      ...(await Promise.all([1, 2].map(() => TestStream.ready(second.url, pro.headers)))),
    ];
    assert.equal((await refusedUpgrade(first.url, pro.headers)).body.code, 'stream_limit_reached');
    const byMessage = new TestStream(second.url);
    await new Promise((resolve) => byMessage.ws.once('open', resolve));
    byMessage.send({ type: 'auth', api_key: pro.secret });
    assert.equal((await byMessage.closed).code, 4429);

    // A stream closed on the first instance frees a slot the second can give out.
    await streams.shift()!.close();
    let sixth: TestStream | number = 429;
    for (let attempt = 0; attempt < 40 && typeof sixth === 'number'; attempt++) {
      sixth = await TestStream.attempt(second.url, pro.headers);
      if (typeof sixth === 'number') await sleep(50);
    }
    assert.ok(typeof sixth !== 'number', `no slot after a close (${sixth})`);
    await Promise.all([...streams, sixth].map((stream) => stream.close()));
  });
});
