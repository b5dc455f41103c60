// Builds the feed adapter an AIS_FEEDS entry describes (see spec.ts for the entries).
import { AisstreamFeed } from './aisstream.ts';
import type { AisstreamFeedOptions } from './aisstream.ts';
import { ReplayFeed } from './replay.ts';
import type { ReplayFeedOptions } from './replay.ts';
import type { FeedSpec } from './spec.ts';
import { TcpClientFeed, TcpListenFeed } from './tcp.ts';
import type { TcpClientFeedOptions, TcpListenFeedOptions } from './tcp.ts';
import type { Feed, FeedLogger } from './types.ts';
import { UdpFeed } from './udp.ts';
import type { UdpFeedOptions } from './udp.ts';

export interface CreateFeedOptions {
  /** The aisstream API key (its own setting, never part of a feed URI). */
  aisstreamApiKey?: string;
  onLog?: FeedLogger;
  /** Per-kind tuning: timings, caps (tests pass short timings here). */
  udp?: Omit<UdpFeedOptions, 'onLog'>;
  tcp?: Omit<TcpClientFeedOptions, 'onLog'>;
  tcpListen?: Omit<TcpListenFeedOptions, 'onLog'>;
  aisstream?: Omit<AisstreamFeedOptions, 'onLog' | 'apiKey'>;
  replay?: Omit<ReplayFeedOptions, 'onLog'>;
}

/** Builds the feed a spec describes (not started). Network feeds and aisstream are `live`, file replay `replay`. */
export function createFeed(spec: FeedSpec, options: CreateFeedOptions = {}): Feed {
  const onLog = options.onLog;
  switch (spec.kind) {
    case 'udp':
      return new UdpFeed(spec, { ...options.udp, onLog });
    case 'tcp':
      return new TcpClientFeed(spec, { ...options.tcp, onLog });
    case 'tcp-listen':
      return new TcpListenFeed(spec, { ...options.tcpListen, onLog });
    case 'aisstream':
      return new AisstreamFeed(spec, { ...options.aisstream, apiKey: options.aisstreamApiKey, onLog });
    case 'file':
      return new ReplayFeed(spec, { ...options.replay, onLog });
  }
}
