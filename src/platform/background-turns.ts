// Work the service does in slices beside its requests (reference data loading and what is built
// from it, the routes' validators, a backlog of held changes) waits for its next slice here. One
// slice runs a turn of the event loop among them all, not one from each: with several loads at
// once, a request waits for at most one slice, not for the sum of them.

const waiting: (() => void)[] = [];

/** Lets the next waiting slice go; an immediate queued meanwhile runs on the next turn, after timers and I/O. */
function next(): void {
  waiting.shift()!();
  if (waiting.length > 0) setImmediate(next);
}

/** Resolves on a later turn of the event loop, in turn with the other slices waiting. */
export function backgroundTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (waiting.push(resolve) === 1) setImmediate(next);
  });
}
