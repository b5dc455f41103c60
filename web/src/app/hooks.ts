// Hooks the pages share: loading data with its error, repeating a task on a timer, and the width
// a chart has to fill.
import type { RefObject } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface Async<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again, keeping the data shown until the new answer arrives. */
  reload(): void;
  /** Replaces the data (after a change whose answer is the new state). */
  setData(data: T): void;
}

/**
 * Runs `load` now and whenever `deps` change; an answer that arrives after a newer call started is
 * dropped, and the signal given to `load` aborts when it is no longer wanted.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Async<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const latest = useRef(load);
  latest.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    latest.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(() => value);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, round]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data, error, loading, reload, setData: (value: T) => setData(() => value) };
}

/** Calls `task` every `ms` while `active`; stops when the component goes. */
export function useInterval(task: () => void, ms: number, active = true): void {
  const latest = useRef(task);
  latest.current = task;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [ms, active]);
}

/** Seconds left until `until` (ms since the epoch), counting down once a second; 0 when past. */
export function useCountdown(until: number): number {
  const left = () => Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const now = left();
      setSeconds(now);
      if (now === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return seconds;
}

/** The element's width in pixels as laid out (at least `min`), following it as it resizes; for charts drawn to fit. */
export function useMeasuredWidth(min = 280, initial = 720): [RefObject<HTMLDivElement | null>, number] {
  const wrapper = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const element = wrapper.current!;
    const measure = () => setWidth(Math.max(min, Math.round(element.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [min]);
  return [wrapper, width];
}
