import { z } from 'zod';

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
