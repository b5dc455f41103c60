// Operational routes outside /v3: liveness, readiness, metrics and the problem-type catalogue.
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import type { Readiness } from '../health.ts';
import { ProblemError, Problems, findProblemType, problemCatalogue } from './problems.ts';
import { Shared } from './schema.ts';

const ProblemTypeSchema = Shared('ProblemType', Type.Object({
  code: Type.String(),
  status: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
}));

const CheckSchema = Type.Object({
  state: Type.Union([Type.Literal('up'), Type.Literal('degraded'), Type.Literal('down')]),
  detail: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export function registerOpsRoutes(app: FastifyInstance, readiness: Readiness, metrics: Registry): void {
  app.get('/healthz', {
    schema: {
      summary: 'Liveness: the process is up and serving',
      tags: ['Operations'],
      response: { 200: Type.Object({ status: Type.Literal('ok') }) },
    },
  }, async () => ({ status: 'ok' as const }));

  const ReadinessSchema = Type.Object({
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    checks: Type.Record(Type.String(), CheckSchema),
  });
  app.get('/readyz', {
    schema: {
      summary: 'Readiness: storage, bus, feeds and load, each with its state',
      description: 'Answers 200 when no check is down, 503 otherwise; `degraded` does not make it unready. `load` is `degraded` ' +
        'while the instance is overloaded and sheds development keys; its detail says why (`reasons`) and since when.',
      tags: ['Operations'],
      response: { 200: ReadinessSchema, 503: ReadinessSchema },
    },
  }, async (_request, reply) => {
    const report = await readiness.report();
    return reply.status(report.status === 'ready' ? 200 : 503).send(report);
  });

  app.get('/metrics', {
    schema: {
      summary: 'Prometheus metrics (text exposition format)',
      tags: ['Operations'],
      produces: ['text/plain'],
      response: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: Type.String() } } } },
    },
  }, async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()));

  app.get('/problems', {
    schema: {
      summary: 'Every problem code the API can answer with',
      tags: ['Operations'],
      response: { 200: Type.Object({ data: Type.Array(ProblemTypeSchema) }) },
    },
  }, async () => ({ data: problemCatalogue() }));

  app.get('/problems/:code', {
    schema: {
      summary: 'What one problem code means',
      tags: ['Operations'],
      params: Type.Object({ code: Type.String({ pattern: '^[a-z0-9_]+$', maxLength: 64 }) }),
      response: { 200: ProblemTypeSchema },
    },
  }, async (request) => {
    const { code } = request.params as { code: string };
    const type = findProblemType(code);
    if (!type) throw new ProblemError(Problems.notFound, `No problem code "${code}".`);
    return type;
  });
}
