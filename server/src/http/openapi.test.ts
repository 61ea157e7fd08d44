import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The fuzz suite (.ci/fuzz.sh) fails on any answer this document does not list; these tests keep it complete.
// They read the checked-in document, which operations.integration.test.ts holds equal to what the server generates.

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }>; links?: Record<string, { operationId: string }> }>;
};

const doc = JSON.parse(readFileSync(fileURLToPath(new URL('../../openapi.json', import.meta.url)), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>; securitySchemes: Record<string, unknown> };
};
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);
const statuses = (op: Operation) => Object.keys(op.responses);

describe('/openapi.json', () => {
  it('names every operation once, so links can point at them', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('links only to operations that exist, from the answers that carry a device id or a browser token', () => {
    const ids = new Set(operations.map(({ op }) => op.operationId));
    const links = operations.flatMap(({ op }) => Object.values(op.responses).flatMap((r) => Object.values(r.links ?? {})));
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect(ids, link.operationId).toContain(link.operationId);
    const from = (id: string) => Object.keys(operations.find(({ op }) => op.operationId === id)!.op.responses['200']!.links ?? {});
    expect(from('postEvent')).toContain('getDevice');
    expect(from('registerDevice')).toEqual(expect.arrayContaining(['getDeviceRegistration', 'transferDevice']));
    expect(from('postJsCollect')).toEqual(expect.arrayContaining(['PageEvents', 'BackendEvent']));
  });

  it('lists 401, 403, 429 and 503 wherever a credential is checked, and 400, 413 and 415 wherever a body is read', () => {
    for (const { name, op } of operations) {
      if (op.security) expect(statuses(op), name).toEqual(expect.arrayContaining(['401', '403', '429', '503']));
      if (op.requestBody) expect(statuses(op), name).toEqual(expect.arrayContaining(['400', '413', '415']));
    }
    expect(statuses(doc.paths['/devices/{device_id}/deactivate']!.post!)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409', '413', '415', '429', '503']),
    );
  });

  it('answers every failure as a Problem', () => {
    for (const { name, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || (op.operationId === 'graphql' && status === '400')) continue;
        expect(response.content?.['application/problem+json']?.schema, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/Problem' });
      }
    }
  });

  it('gives the /js bodies real schemas and authorises pages by Origin', () => {
    for (const [path, schema] of [
      ['/js/collect', 'JsCollect'],
      ['/js/events', 'JsEvents'],
    ] as const) {
      const op = doc.paths[path]!.post!;
      expect(op.requestBody!.content['application/json']!.schema).toEqual({ $ref: `#/components/schemas/${schema}` });
      expect(op.security).toEqual([{ pageOrigin: [] }, { clientKey: [] }]);
    }
    expect(doc.components.schemas.JsCollect!.required).toEqual(expect.arrayContaining(['version', 'device_id', 'components']));
    expect(doc.components.schemas.JsEvents!.required).toEqual(expect.arrayContaining(['version', 'device_id', 'events']));
    expect(doc.components.securitySchemes.pageOrigin).toMatchObject({ type: 'apiKey', in: 'header', name: 'Origin' });
  });

  it('describes answers completely, so an unexpected field is a fuzz failure', () => {
    for (const name of [
      'Insights',
      'Problem',
      'DeviceRegistration',
      'RegistrationStatus',
      'SupervisorDevice',
      'DeviceDetail',
      'JsCollectAnswer',
      'JsEventsAnswer',
    ]) {
      expect(doc.components.schemas[name], name).toMatchObject({ additionalProperties: false });
    }
  });
});
