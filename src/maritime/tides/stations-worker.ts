// The stations thread: it owns the tide station database, whose import alone held the serving
// thread about a quarter of a second and grew its heap by 33 to 41 MiB, and answers look-ups by
// station id or by position from the serving thread's station index (stations.ts), one message each.
import { parentPort } from 'node:worker_threads';
import { stations } from '@neaps/tide-database';
import { lowerThreadPriority } from '../../platform/worker-task.ts';
import { createStationLookup } from './station-lookup.ts';
import type { StationAnswer, StationQuestion } from './stations.ts';

lowerThreadPriority();

const lookup = createStationLookup(stations);
const port = parentPort!;
port.on('message', (question: StationQuestion) => {
  const answer: StationAnswer = question.kind === 'get'
    ? { asked: question.asked, match: lookup.get(question.id), distance_nm: null }
    : answerNearest(question);
  port.postMessage(answer);
});
port.postMessage('ready');

function answerNearest(question: Extract<StationQuestion, { kind: 'nearest' }>): StationAnswer {
  const found = lookup.nearest(question.point, question.radius_nm, question.commercial_use_only);
  return { asked: question.asked, match: found?.record ?? null, distance_nm: found?.distance_nm ?? null };
}
