import { z } from 'zod';
import type { BindingSummary } from './store.js';

const base64 = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');

/** `device_key` of a registration: the device's Keystore public key and its attestation chain. */
export const deviceKeyInput = z
  .object({
    public_key: base64(1024).describe('The public key: base64 DER SubjectPublicKeyInfo of an EC P-256 key.'),
    attestation_chain: z
      .array(base64(16_384))
      .max(10)
      .describe("Key attestation chain, base64 DER certificates, the key's own first; empty when the device has none."),
  })
  .strict();

/** The device signature headers (README, "Device binding"), documented on the routes that take them. */
export const signatureHeaderFields = {
  'Vigil-Device-Key-Id': z.string().optional().describe('Base64url SHA-256 of the device key (SPKI DER), unpadded.'),
  'Vigil-Signature-Time': z.string().optional().describe('Unix seconds when the device signed the request.'),
  'Vigil-Device-Signature': z
    .string()
    .optional()
    .describe('Base64 DER ECDSA P-256 SHA-256 signature over the canonical signing input (README, "Device binding").'),
};

/** A device's binding as the supervisor API answers it (README, "Device binding"); null when the device is not bound. */
export const deviceBindingSchema = z
  .object({
    key_id: z.string().describe('Base64url SHA-256 of the bound key (SPKI DER), as the device sends it in Vigil-Device-Key-Id.'),
    attestation: z
      .enum(['strongbox', 'hardware', 'software', 'unverified'])
      .describe("What the key's attestation chain proved: StrongBox, the TEE, software only, or nothing (see attestation_problem)."),
    attestation_problem: z.string().nullable().describe('Why the chain proved no more (no_chain, wrong_root, expired, …); null when it verified.'),
    bound_at: z.string().describe('When the key was bound (ISO 8601).'),
  })
  .nullable();

export function bindingView(b: BindingSummary | undefined): z.output<typeof deviceBindingSchema> {
  return b ? { key_id: b.keyId, attestation: b.attestation, attestation_problem: b.attestationProblem, bound_at: b.boundAt.toISOString() } : null;
}
