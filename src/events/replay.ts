// Where a resumed event stream's replay meets its live changes. The replay reads each event from
// storage with the number of its latest change, while changes keep being announced on the bus, each
// with its number: those announced during the replay wait behind it, and a live change of a replayed
// event numbered no later than what the replay (or an earlier live change) showed of that event is
// not sent again. Numbers rise in commit order, so nothing is lost and nothing comes twice.
import type { LoggedChange } from './events.ts';

export class ReplaySeam {
  readonly #send: (change: LoggedChange) => void;
  #replaying = false;
  /** Live changes announced while the replay runs. */
  #held: LoggedChange[] = [];
  /** The latest change sent of each replayed event. */
  readonly #shown = new Map<string, number>();

  constructor(send: (change: LoggedChange) => void) {
    this.#send = send;
  }

  begin(): void {
    this.#replaying = true;
  }

  /** An event as the replay read it, with the number of its latest change. */
  replayed(change: LoggedChange): void {
    this.#shown.set(change.event.id, change.seq);
    this.#send(change);
  }

  /** A change announced on the bus. */
  live(change: LoggedChange): void {
    if (this.#replaying) {
      this.#held.push(change);
      return;
    }
    const shown = this.#shown.get(change.event.id);
    if (shown !== undefined) {
      if (change.seq <= shown) return;
      this.#shown.set(change.event.id, change.seq);
    }
    this.#send(change);
  }

  /** The replay is over: the changes held meanwhile go out in order, except those it showed already. */
  end(): void {
    this.#replaying = false;
    const held = this.#held;
    this.#held = [];
    for (const change of held) this.live(change);
  }
}
