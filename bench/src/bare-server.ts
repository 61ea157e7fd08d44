import Fastify from 'fastify';
import { insightBody } from './insight-body.js';

/**
 * The baseline: a bare Fastify route that parses the same JSON body and answers a constant insight body.
 * Vigil ÷ bare is the cost of authentication, validation, evaluation and the durable write.
 */
const app = Fastify({ logger: false });
app.post('/events', async () => insightBody);
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
