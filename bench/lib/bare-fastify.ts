// The startup benchmark's baseline: a bare Node.js process that starts a Fastify server answering
// GET /healthz on $PORT, and nothing else.
import Fastify from 'fastify';

const app = Fastify();
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
