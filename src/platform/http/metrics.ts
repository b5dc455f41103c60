// Prometheus metrics at /metrics: process metrics plus request counts and latencies by route and
// status. Each server has its own registry, so features add their counters to it.
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** How long one scrape's answer is reused by the other metrics of the scrape. */
const SCRAPE_REUSE_MS = 250;

/**
 * `ask` shared by the metrics of one scrape: for figures asked of another thread or process, which
 * several gauges and counters read, asked once rather than once each.
 */
export function onceAScrape<T>(ask: () => Promise<T>): () => Promise<T> {
  let asked: { at: number; answer: Promise<T> } | null = null;
  return () => {
    if (asked === null || performance.now() - asked.at > SCRAPE_REUSE_MS) asked = { at: performance.now(), answer: ask() };
    return asked.answer;
  };
}

export function instrumentRequests(app: FastifyInstance, registry: Registry): void {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'lamis_http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'lamis_http_request_duration_seconds',
    help: 'Time from request to response',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL, keeps the label set small.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
}
