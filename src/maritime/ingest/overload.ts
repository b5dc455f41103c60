// AIS ingest as an overload signal of the load shedder: ingest counts as behind whenever it
// coalesced a position (more than a full batch waited for the serving thread) or shed a feed line
// (its queue was past its bound) since the shedder last looked. The shedder then holds the instance
// overloaded until ingest has done neither for its calm time (5 s), so development keys are shed
// steadily while coalescing comes and goes with each batch. A backlog past the high water alone
// is no overload: it only makes TCP feeds wait, and an upload queues past it as a matter of course.
import type { OverloadSignal } from '../../platform/ratelimit/index.ts';
import type { IngestCounters, IngestStatus } from './core.ts';

/** `status` is read from the shedder's first look on (the server listening), when ingest runs. */
export function ingestOverload(status: () => IngestStatus): OverloadSignal {
  let seen: IngestCounters | null = null;
  return {
    reason: 'ingest',
    description: 'AIS ingest is behind: it coalesces positions or sheds feed lines',
    active() {
      const now = status().ingest;
      const rose = seen !== null && (now.coalesced > seen.coalesced || now.shed_lines > seen.shed_lines);
      seen = now;
      return rose;
    },
    detail() {
      const { coalesced, shed_lines, backlog_lines } = status().ingest;
      return { coalesced, shed_lines, backlog_lines };
    },
  };
}
