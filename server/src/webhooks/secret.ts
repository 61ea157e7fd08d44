import { randomBytes } from 'node:crypto';

/**
 * A signing secret in the Standard Webhooks form: `whsec_` and the base64 of 32 random bytes (the specification
 * asks for 24 to 64). The receiver gives it as is to its `standardwebhooks` library.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
