// Where a resumed event stream's replay meets its live changes. The replay reads each event from
// storage at one moment, while changes keep being announced on the bus: those announced during the
// replay wait behind it, and a change whose state the replay already showed is not sent again.
import type { LamisEvent } from './events.ts';

export class ReplaySeam {
  readonly #send: (event: LamisEvent) => void;
  #replaying = false;
  /** Live changes announced while the replay runs. */
  #held: LamisEvent[] = [];
  /** Each replayed event as it was sent, until a live change of it comes: that change may be the one the replay showed. */
  readonly #replayed = new Map<string, string>();

  constructor(send: (event: LamisEvent) => void) {
    this.#send = send;
  }

  begin(): void {
    this.#replaying = true;
  }

  /** An event as the replay read it. */
  replayed(event: LamisEvent): void {
    this.#replayed.set(event.id, JSON.stringify(event));
    this.#send(event);
  }

  /** A change announced on the bus. */
  live(event: LamisEvent): void {
    if (this.#replaying) {
      this.#held.push(event);
      return;
    }
    const replayed = this.#replayed.get(event.id);
    if (replayed !== undefined) {
      this.#replayed.delete(event.id);
      if (replayed === JSON.stringify(event)) return;
    }
    this.#send(event);
  }

  /**
   * The replay is over: the changes held meanwhile go out in order, except those of an event up to
   * the one in the state the replay showed (it read the event after them).
   */
  end(): void {
    this.#replaying = false;
    const held = this.#held;
    this.#held = [];
    const shown = new Map<string, number>();
    held.forEach((event, index) => {
      if (this.#replayed.get(event.id) === JSON.stringify(event)) shown.set(event.id, index);
    });
    held.forEach((event, index) => {
      const upTo = shown.get(event.id);
      if (upTo === undefined) this.live(event);
      else if (index === upTo) this.#replayed.delete(event.id);
      else if (index > upTo) this.#send(event);
    });
  }
}
