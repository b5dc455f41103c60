// Where the event stream and the fleet feed meet: the fleet feed (in the intelligence engine, which
// starts after this feature) sends each owner's changed entries through it as `feed` frames, and
// hears when an owner opens a stream on this instance, so that it keeps that owner's entries
// current. Frames go to this instance's streams only: every instance computes the entries of its
// own streams' owners from the inputs the bus brings it, so no frame comes twice. The service
// creates one before its features start; the event stream and the fleet feed attach to it.
import type { FleetFeedEntry } from './fleet-feed.schemas.ts';

export interface FeedStreams {
  /** Sends the entry as a `feed` frame to every stream of the owner on this instance. */
  send(owner: string, entry: FleetFeedEntry): void;
  /** Whether the owner holds a stream on this instance. */
  listening(owner: string): boolean;
}

export class FeedFrames {
  #streams: FeedStreams | null = null;
  #opened: ((owner: string) => void) | null = null;

  /** The event stream: how frames reach an owner's streams. */
  attachStreams(streams: FeedStreams): void {
    this.#streams = streams;
  }

  /** The fleet feed: told each time a stream of an owner opens. */
  onStreamOpened(handler: (owner: string) => void): void {
    this.#opened = handler;
  }

  streamOpened(owner: string): void {
    this.#opened?.(owner);
  }

  listening(owner: string): boolean {
    return this.#streams?.listening(owner) ?? false;
  }

  send(owner: string, entry: FleetFeedEntry): void {
    this.#streams?.send(owner, entry);
  }
}
