// Public surface of the AIS feed adapters (the simulator has its own, in simulator/index.ts).
export { AisstreamFeed, aisstreamSubscription } from './aisstream.ts';
export type { AisstreamFeedOptions, AisstreamSubscription } from './aisstream.ts';
export { convertAisstreamMessage, CONVERTED_AISSTREAM_TYPES, parseAisstreamFrame } from './aisstream-json.ts';
export type { AisstreamFrame } from './aisstream-json.ts';
export { Backoff } from './base.ts';
export type { BackoffOptions } from './base.ts';
export { createFeed } from './create-feed.ts';
export type { CreateFeedOptions } from './create-feed.ts';
export { DEFAULT_MAX_LINE_LENGTH, LineSplitter, splitLines } from './lines.ts';
export { ReplayFeed, tagBlockTime } from './replay.ts';
export type { ReplayFeedOptions } from './replay.ts';
export { AISSTREAM_MESSAGE_TYPES, parseFeedSpec, parseFeedSpecs, redactFeedUri, splitFeedList } from './spec.ts';
export type {
  AisstreamFeedSpec,
  BoundingBox,
  FeedSpec,
  FeedSpecsResult,
  FileFeedSpec,
  TcpFeedSpec,
  TcpListenFeedSpec,
  UdpFeedSpec,
} from './spec.ts';
export { DEFAULT_IDLE_TIMEOUT_MS, TcpClientFeed, TcpListenFeed } from './tcp.ts';
export type { TcpClientFeedOptions, TcpListenFeedOptions } from './tcp.ts';
export { FEED_REJECT_REASONS } from './types.ts';
export type { Feed, FeedKind, FeedLogger, FeedLogLevel, FeedRejectReason, FeedSink, FeedSource, FeedState, FeedStatus } from './types.ts';
export { UdpFeed } from './udp.ts';
export type { UdpFeedOptions } from './udp.ts';
