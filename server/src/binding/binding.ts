import { createPublicKey } from 'node:crypto';
import { VigilError } from '../errors.js';
import type { Queryable } from '../db/handle.js';
import type { DeviceSignature } from '../pipeline/event.js';
import { verifyAttestation, type AttestationResult } from './attestation.js';
import type { TrustedRoots } from './roots.js';
import { keyIdOf, verifiedBy } from './signature.js';
import { bindKey, boundKey, type BoundKey } from './store.js';

/** How far a registration change's `Vigil-Signature-Time` may be from the server's clock. */
export const SIGNATURE_TIME_WINDOW_S = 24 * 60 * 60;

/** A key sent at registration (`device_key` of the body). */
export interface PresentedKey {
  /** SPKI DER, base64. */
  public_key: string;
  /** Base64 DER certificates, the key's own first. */
  attestation_chain: string[];
}

/** What a registration change must satisfy, and the key it binds; run inside the registry's move. */
export interface MoveCheck {
  /** Under the device's lock, before the move: throws `device_key_mismatch` for a request its key did not sign. */
  before(tx: Queryable): Promise<void>;
  /** In the move's transaction, once it was accepted: binds the presented key. */
  accepted(tx: Queryable): Promise<void>;
}

export interface MoveRequest {
  deviceId: string;
  signature: DeviceSignature | null;
  /** Write keys belong to the operator's backend and are not held to a device's key (README, "Device binding"). */
  keyKind: 'write' | 'client';
  presented?: PresentedKey | undefined;
}

const mismatch = (detail: string) => new VigilError('device_key_mismatch', detail);

/** Device binding on the device routes: verifies a presented key and its chain, and signatures of bound devices. */
export class DeviceBinding {
  constructor(private readonly options: { roots: TrustedRoots; now?: () => Date }) {}

  private now() {
    return this.options.now?.() ?? new Date();
  }

  /**
   * Checks a move's request before any database work: a presented key must parse and sign this very request
   * (proof of possession); its attestation chain is verified now, and what it proved is stored with the key.
   */
  moveCheck(request: MoveRequest): MoveCheck {
    const now = this.now();
    const { deviceId, signature } = request;
    const timely = signature !== null && Math.abs(signature.time - now.getTime() / 1000) <= SIGNATURE_TIME_WINDOW_S;
    let binding: { key: BoundKey; attestation: AttestationResult } | null = null;
    if (request.presented) {
      const spki = parseSpki(request.presented.public_key);
      const key = { deviceId, keyId: keyIdOf(spki), publicKey: spki.toString('base64') };
      if (!signature || !timely || !verifiedBy(signature, key.publicKey)) {
        throw mismatch(`The registration of ${deviceId} is not signed by the device_key it presents (or its Vigil-Signature-Time is more than 24 h off)`);
      }
      const attestation = verifyAttestation({
        chain: request.presented.attestation_chain,
        publicKey: spki,
        challenge: Buffer.from(deviceId, 'utf8'),
        roots: this.options.roots,
        now,
      });
      binding = { key, attestation };
    }
    return {
      before: async (tx) => {
        const bound = await boundKey(tx, deviceId);
        if (!bound) return;
        if (binding && binding.key.publicKey !== bound.publicKey) throw mismatch(`Device ${deviceId} is bound to another key`);
        if (request.keyKind === 'write') return;
        if (!signature || !timely || !verifiedBy(signature, bound.publicKey)) {
          throw mismatch(`Device ${deviceId} is bound to a key, and this request is not signed by it (or its Vigil-Signature-Time is more than 24 h off)`);
        }
      },
      accepted: async (tx) => {
        if (binding) await bindKey(tx, binding.key, binding.attestation);
      },
    };
  }
}

function parseSpki(base64: string): Buffer {
  const der = Buffer.from(base64, 'base64');
  try {
    const key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('not P-256');
    return key.export({ type: 'spki', format: 'der' });
  } catch {
    throw new VigilError('validation_failed', 'device_key.public_key is not an EC P-256 public key (base64 DER SubjectPublicKeyInfo)', {
      errors: [{ path: 'device_key.public_key', message: 'must be a base64 DER SubjectPublicKeyInfo of an EC P-256 key' }],
    });
  }
}
