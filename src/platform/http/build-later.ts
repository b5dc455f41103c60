// Start-up cost. fastify builds every route's request validators (ajv) and response serialisers
// (fast-json-stringify) before the server listens: with the ajv instance that checks the ~90 shared
// shapes, about a second of CPU on the development machine, most of a start once the reference data
// loads after it. So each is built on its route's first use instead, or in the background a slice
// at a time (`buildPending`, started as soon as the routes are in: server.ts), whichever comes
// first. A route's first request may pay a few milliseconds for it; a schema that cannot be built
// fails that request (a 500) and is logged by the background build; test/platform/startup.test.ts
// builds them all.
import { backgroundTurn } from '../background-turns.ts';

/** Builds not done yet, in the order they were asked for. */
const pending = new Set<() => unknown>();
/** What the builds that failed in `buildPending` threw, whichever call made them. */
const failed: unknown[] = [];

/** What fastify reads from a validator after a call: the failures, or null. */
type Built = ((...args: never[]) => unknown) & { errors?: unknown };

/** A function that builds `build()` on its first call (or in `buildPending`) and then calls it, passing on its `errors`. */
export function buildLater<F extends Built>(build: () => F): F {
  let built: F | undefined;
  const make = (): F => {
    if (built === undefined) {
      pending.delete(make);
      built = build();
    }
    return built;
  };
  pending.add(make);
  const call = Object.assign((...args: Parameters<F>) => {
    const fn = make();
    const result = fn(...args);
    call.errors = fn.errors;
    return result;
  }, { errors: null as unknown });
  return call as unknown as F;
}

/**
 * Builds everything still pending, a slice of `sliceMs` a turn of the event loop, so requests are
 * served meanwhile; rejects, once all the others are built, with every build that failed so far
 * (another call running at the same time may have made it).
 */
export async function buildPending(sliceMs = 10): Promise<number> {
  let built = 0;
  while (pending.size > 0) {
    const started = performance.now();
    for (const make of pending) {
      try {
        make();
        built++;
      } catch (error) {
        pending.delete(make);
        failed.push(error);
      }
      if (performance.now() - started > sliceMs) break;
    }
    await backgroundTurn();
  }
  if (failed.length > 0) throw new AggregateError(failed, `${failed.length} request validators or response serialisers could not be built`);
  return built;
}
