// Refusals of a stream before its upgrade: answered as problem documents, like any request.
import { PLANS } from '../../../common/plans.ts';
import { ASYNCAPI_PATH } from '../http/asyncapi.ts';
import { problemType } from '../http/problems.ts';

export const upgradeRequired = problemType({
  code: 'upgrade_required',
  status: 426,
  title: 'A WebSocket is needed',
  description: `The streams under /v3/stream/ are WebSockets: open them with a WebSocket client (\`Upgrade: websocket\`). ${ASYNCAPI_PATH} describes them.`,
});

export const streamNotInPlan = problemType({
  code: 'stream_not_in_plan',
  status: 403,
  title: 'The plan has no streams',
  description: "The organisation's plan (Starter) includes the REST API only; Pro and Enterprise include the WebSocket streams.",
});

export const streamLimitReached = problemType({
  code: 'stream_limit_reached',
  status: 429,
  title: 'Too many streams open',
  description: `The organisation already holds as many streams as its plan allows at once (Pro: ${PLANS.pro.maxConcurrentStreams}, counted across every instance); close one, or retry after \`Retry-After\` seconds.`,
});
