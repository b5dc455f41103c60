import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AisAssembler } from './assembler.ts';
import type { AssembledPayload, AssemblyResult, DroppedGroup } from './assembler.ts';
import { buildAisSentences, parseAisSentence } from './nmea.ts';
import type { AisSentence, SentenceOptions } from './nmea.ts';

// A 71-character payload: two sentences at 60 characters each, three at 30.
const LONG_PAYLOAD = '53aGulD0000000c7?0918Tq<E>0<Q8U=@Tp400155P:22uG`002ShTj0EQC`4Sm51A0C@08';
const OTHER_PAYLOAD = '55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp888888888880';

function frames(payload: string, options: SentenceOptions): AisSentence[] {
  return buildAisSentences(payload, 2, options).map((line) => {
    const result = parseAisSentence(line);
    assert.ok(result.ok);
    return result.sentence;
  });
}

function completed(result: AssemblyResult): AssembledPayload {
  assert.equal(result.status, 'complete');
  return (result as { status: 'complete'; message: AssembledPayload }).message;
}

test('single-sentence messages complete at once', () => {
  const assembler = new AisAssembler();
  const [sentence] = frames('177KQJ5000G?tO`K>RA1wUbN0TKH', { channel: 'B' });
  const message = completed(assembler.push(sentence!, 1000, 'feed-1'));
  assert.equal(message.payload, '177KQJ5000G?tO`K>RA1wUbN0TKH');
  assert.equal(message.feedId, 'feed-1');
  assert.equal(message.channel, 'B');
  assert.equal(message.source, null);
  assert.equal(message.receivedAt, 1000);
  assert.equal(assembler.pendingGroups, 0);
});

test('joins fragments in order and out of order', () => {
  for (const order of [
    [0, 1, 2],
    [2, 0, 1],
    [1, 2, 0],
    [2, 1, 0],
  ]) {
    const assembler = new AisAssembler();
    const parts = frames(LONG_PAYLOAD, { sequenceId: 3, maxPayloadChars: 30 });
    assert.equal(parts.length, 3);
    const results = order.map((index, step) => assembler.push(parts[index]!, 100 + step));
    assert.deepEqual(results.slice(0, 2).map((r) => r.status), ['pending', 'pending']);
    const message = completed(results[2]!);
    assert.equal(message.payload, LONG_PAYLOAD);
    assert.equal(message.fillBits, 2);
    assert.deepEqual(message.sentences.map((s) => s.fragmentNumber), [1, 2, 3]);
    assert.equal(message.firstReceivedAt, 100);
    assert.equal(message.receivedAt, 102);
    assert.equal(assembler.pendingGroups, 0);
  }
});

test('keeps interleaved groups from several feeds, sources and channels apart', () => {
  const assembler = new AisAssembler();
  const feedA = frames(LONG_PAYLOAD, { sequenceId: 1, channel: 'A' });
  const feedB = frames(OTHER_PAYLOAD, { sequenceId: 1, channel: 'A' });
  const channelB = frames(OTHER_PAYLOAD, { sequenceId: 1, channel: 'B' });
  const tagged = frames(OTHER_PAYLOAD, { sequenceId: 1, channel: 'A', tagBlock: { source: 'rx-2' } });
  assert.equal(assembler.push(feedA[0]!, 0, 'a').status, 'pending');
  assert.equal(assembler.push(feedB[0]!, 0, 'b').status, 'pending');
  assert.equal(assembler.push(channelB[0]!, 0, 'a').status, 'pending');
  assert.equal(assembler.push(tagged[0]!, 0, 'a').status, 'pending');
  assert.equal(assembler.pendingGroups, 4);
  assert.equal(assembler.pendingFragments, 4);
  const fromB = completed(assembler.push(feedB[1]!, 1, 'b'));
  assert.equal(fromB.payload, OTHER_PAYLOAD);
  assert.equal(fromB.feedId, 'b');
  const fromTagged = completed(assembler.push(tagged[1]!, 1, 'a'));
  assert.equal(fromTagged.source, 'rx-2');
  assert.equal(completed(assembler.push(feedA[1]!, 1, 'a')).payload, LONG_PAYLOAD);
  assert.equal(completed(assembler.push(channelB[1]!, 1, 'a')).channel, 'B');
  assert.equal(assembler.pendingGroups, 0);
});

test('groups by the tag-block g: id even when later fragments omit s: and c:', () => {
  const assembler = new AisAssembler();
  const parts = frames(LONG_PAYLOAD, { sequenceId: 5, tagBlock: { groupId: 77 } });
  const first = parseAisSentence(buildAisSentences(LONG_PAYLOAD, 2, { sequenceId: 5, tagBlock: { groupId: 77, source: 'base', time: 1_600_000_000_000 } })[0]!);
  assert.ok(first.ok);
  assert.equal(assembler.push(first.sentence, 0).status, 'pending');
  const message = completed(assembler.push(parts[1]!, 1));
  assert.equal(message.source, 'base');
  assert.equal(message.tagTime, 1_600_000_000_000);
  assert.equal(message.payload, LONG_PAYLOAD);
});

test('ignores a repeated fragment and counts it as a duplicate', () => {
  const assembler = new AisAssembler();
  const parts = frames(LONG_PAYLOAD, { sequenceId: 2 });
  assert.equal(assembler.push(parts[0]!, 0).status, 'pending');
  assert.equal(assembler.push(parts[0]!, 1).status, 'duplicate');
  assert.equal(completed(assembler.push(parts[1]!, 2)).payload, LONG_PAYLOAD);
  // After completion the same fragments start a new message.
  assert.equal(assembler.push(parts[1]!, 3).status, 'pending');
});

test('a different fragment under a held key supersedes the old group', () => {
  const drops: DroppedGroup[] = [];
  const assembler = new AisAssembler({ onDrop: (group) => drops.push(group) });
  const first = frames(LONG_PAYLOAD, { sequenceId: 4 });
  const second = frames(OTHER_PAYLOAD, { sequenceId: 4 });
  assembler.push(first[0]!, 0, 'f');
  assert.equal(assembler.push(second[0]!, 1, 'f').status, 'pending');
  assert.deepEqual(drops, [{ feedId: 'f', source: null, channel: 'A', sequenceId: 4, fragments: 1, cause: 'superseded' }]);
  assert.equal(completed(assembler.push(second[1]!, 2, 'f')).payload, OTHER_PAYLOAD);
});

test('drops incomplete groups after the timeout, driven by the times passed in', () => {
  const drops: DroppedGroup[] = [];
  const assembler = new AisAssembler({ timeoutMs: 10_000, onDrop: (group) => drops.push(group) });
  const stale = frames(LONG_PAYLOAD, { sequenceId: 1 });
  const fresh = frames(OTHER_PAYLOAD, { sequenceId: 2 });
  assembler.push(stale[0]!, 1_000);
  assembler.push(fresh[0]!, 6_000);
  assembler.expire(11_000); // exactly the timeout: kept
  assert.equal(drops.length, 0);
  assembler.expire(11_001);
  assert.deepEqual(drops.map((d) => [d.sequenceId, d.cause, d.fragments]), [[1, 'timeout', 1]]);
  // The late fragment of the dropped group starts a new group rather than completing the old one.
  assert.equal(assembler.push(stale[1]!, 11_500).status, 'pending');
  assert.equal(completed(assembler.push(fresh[1]!, 12_000)).payload, OTHER_PAYLOAD);
  // Pushing with a later time sweeps too.
  assembler.push(frames('1'.repeat(28), { channel: 'B' })[0]!, 30_000);
  assert.equal(assembler.pendingGroups, 0);
  assert.equal(drops.length, 2);
});

test('the default timeout is 10 seconds', () => {
  const drops: DroppedGroup[] = [];
  const assembler = new AisAssembler({ onDrop: (group) => drops.push(group) });
  assembler.push(frames(LONG_PAYLOAD, { sequenceId: 1 })[0]!, 0);
  assembler.expire(10_000);
  assert.equal(drops.length, 0);
  assembler.expire(10_001);
  assert.equal(drops.length, 1);
});

test('holds at most maxPendingGroups, evicting the oldest', () => {
  const drops: DroppedGroup[] = [];
  const assembler = new AisAssembler({ maxPendingGroups: 3, onDrop: (group) => drops.push(group) });
  for (let id = 0; id < 10; id++) assembler.push(frames(LONG_PAYLOAD, { sequenceId: id })[0]!, id);
  assert.equal(assembler.pendingGroups, 3);
  assert.deepEqual(drops.map((d) => [d.sequenceId, d.cause]), [0, 1, 2, 3, 4, 5, 6].map((id) => [id, 'evicted']));
  assembler.clear();
  assert.equal(assembler.pendingGroups, 0);
  assert.equal(drops.length, 10);
});
