import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify route that parses the same JSON body and answers a constant insight body.
 * Vigil ÷ bare is the cost of authentication, validation, evaluation and the durable write.
 */
const body = {
  event_id: 'evt_01M7Z0ZH02X4RE8RDXMG9J1XXJ',
  device_id: 'a1b2c3',
  handprint_id: 'hp_vQN3rhibcMx7OPpRO-Y-I3',
  current_tags: ['new_device'],
  risk_score: 0.15,
  score_breakdown: [{ tag: 'new_device', weight: 0.15, contribution: 0.15 }],
  device_id_details: { age: { days: 0 } },
  behaviors: {},
  device: {
    is_registered: false,
    is_trusted: false,
    registered_to: null,
    registered_at: null,
    role: null,
    metadata: {},
    age_days: 0,
    is_new: true,
    model: null,
    os_version: null,
    status: 'unregistered',
  },
  email_intel: null,
  phone_intel: null,
  warnings: [],
};

const app = Fastify({ logger: false });
app.post('/events', async () => body);
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
