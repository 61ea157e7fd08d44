import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { Registration } from './state.js';
import { auditRecordSchema, registrationSchema, registrationStatusSchema, supervisorDeviceSchema } from './view-schemas.js';
import { auditView, deviceView, registrationResult, registrationStatus } from './views.js';

// /openapi.json shows these schemas with additionalProperties: false; the views must answer exactly them.
const exactly = (schema: z.ZodObject, value: unknown) => expect(schema.strict().safeParse(value).error?.issues).toBeUndefined();

const registration: Registration = {
  deviceId: 'dev-1',
  userId: 'ana',
  role: 'cashier',
  status: 'deactivated',
  metadata: { role: 'cashier', branch: 'north' },
  registeredAt: new Date('2026-01-01T00:00:00Z'),
  associatedSince: new Date('2026-01-01T00:00:00Z'),
  deactivatedAt: new Date('2026-01-02T00:00:00Z'),
  deactivationReason: 'lost',
  deactivatedBy: 'sup-1',
  conflictAt: null,
};

describe('registry views match their documented schemas', () => {
  it('registration and registration status, registered or not', () => {
    exactly(registrationSchema, registrationResult(registration));
    exactly(registrationStatusSchema, registrationStatus('dev-1', registration));
    exactly(registrationStatusSchema, registrationStatus('dev-2', null));
  });

  it('a supervisor device, with and without a registration', () => {
    const summary = {
      deviceId: 'dev-1',
      status: 'active' as const,
      registration,
      firstSeen: new Date(),
      lastSeen: null,
      handprintId: 'hp_1',
      model: null,
      osVersion: '14',
    };
    exactly(supervisorDeviceSchema, deviceView(summary, { tags: ['new_device'], riskScore: 0.4 }));
    exactly(supervisorDeviceSchema, deviceView({ ...summary, status: 'unregistered', registration: null }, { tags: [], riskScore: null }));
  });

  it('an audit record', () => {
    const row = {
      id: 'aud_1',
      deviceId: 'dev-1',
      action: 'transfer',
      fromUser: 'ana',
      toUser: 'bo',
      reason: null,
      by: 'sup-1',
      actorKind: 'supervisor',
      actorId: 'sup_1',
      actorName: 'admin',
      metadata: null,
      at: new Date(),
    };
    exactly(auditRecordSchema, auditView(row));
  });
});
