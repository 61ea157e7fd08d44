import { keys, probe } from '../db/compose.js';
import { sql, type Sql } from '../db/statement.js';
import type { DeviceSignature } from '../pipeline/event.js';
import { cachedAll, type CachedPart, type FactCache, factKey, staleWhen } from '../pipeline/fact-cache.js';
import type { EvaluationInput, EvaluationItem, InsightStage, StageContext, StageResult } from '../pipeline/stage.js';
import { verifiedBy } from './signature.js';

/** Events held to their device's key: those sent with a client key that name a device (README, "Device binding"). */
const heldToKey = (item: EvaluationInput) => item.event.deviceId !== null && item.event.deviceSignature?.clientKey === true;

const heldDevices = (batch: readonly EvaluationInput[]) => [...new Set(batch.filter(heldToKey).map((i) => i.event.deviceId!))].sort();

/**
 * Adds `device_key_mismatch` to an event that names a device bound to a key when the request that carried it was
 * not signed by that key: unsigned, signed by another key, or a signature that does not verify.
 */
export function createBindingStage(): InsightStage {
  return {
    name: 'binding',
    read(batch: readonly EvaluationInput[]): Sql | null {
      const deviceIds = heldDevices(batch);
      if (deviceIds.length === 0) return null;
      return sql`(SELECT json_agg(json_build_array(q.k, k.public_key))
        FROM ${keys(deviceIds)} CROSS JOIN ${probe(sql`SELECT public_key FROM device_keys WHERE device_id = q.k`)} AS k)`;
    },
    // Every Android batch and browser event names a device: without this, each of their group commits would read.
    // A bind or unbind made meanwhile (by any process) makes the write's check fail and the batch read again.
    cached(batch: readonly EvaluationInput[], cache: FactCache): CachedPart | undefined {
      const deviceIds = heldDevices(batch);
      if (deviceIds.length === 0) return { facts: null };
      const found = cachedAll<string>(cache, deviceIds, factKey.deviceKey);
      if (!found) return undefined;
      return {
        facts: found.flatMap((f) => (f.v === null ? [] : [[f.k, f.v]])),
        stale: () => staleWhen(found, sql`SELECT to_jsonb(public_key) FROM device_keys WHERE device_id = q.k`),
      };
    },
    evaluate(batch: readonly EvaluationItem[], { facts }: StageContext): StageResult {
      const bound = new Map((facts as [string, string][] | null) ?? []);
      const remember = (cache: FactCache) => {
        for (const deviceId of heldDevices(batch)) cache.set(factKey.deviceKey(deviceId), bound.get(deviceId) ?? null);
      };
      // A batch's events share one request and so one signature: verify it once per key.
      const verdicts = new Map<string, boolean>();
      const verified = (signature: DeviceSignature, publicKey: string) => {
        const memo = `${publicKey}\n${signature.signature.toString('base64')}\n${signature.signedInput}`;
        if (!verdicts.has(memo)) verdicts.set(memo, verifiedBy(signature, publicKey));
        return verdicts.get(memo)!;
      };
      const outputs = batch.map((item) => {
        const publicKey = heldToKey(item) ? bound.get(item.event.deviceId!) : undefined;
        if (publicKey === undefined) return {};
        const signature = item.event.deviceSignature!.signature;
        return signature && verified(signature, publicKey) ? {} : { tags: ['device_key_mismatch'] };
      });
      return { outputs, remember };
    },
  };
}
