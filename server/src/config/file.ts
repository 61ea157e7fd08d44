import { z } from 'zod';
import { behaviorsConfigSchema } from '../behaviors/config.js';
import { intelConfigSchema } from '../risk/intel/config.js';
import { scoreRulesSchema } from '../risk/rules/config.js';

/** Default weight of each tag in the risk score; Critical tags alone reach the block threshold. */
export const defaultTagWeights: Record<string, number> = {
  emulator: 0.9,
  rooted: 0.9,
  hooked: 0.9,
  tor: 0.9,
  // Certain, not a signal: the registry says the device is to be blocked, so alone it scores 1.
  deactivated: 1,
  vpn: 0.4,
  proxy: 0.4,
  multi_user: 0.4,
  bot: 0.5,
  new_device: 0.15,
  unregistered: 0.1,
  // A request for a device bound to a hardware key that the key did not sign: someone else speaking for the device.
  device_key_mismatch: 0.9,
};

export const DEFAULT_BLOCK_THRESHOLD = 0.8;

const weight = z.number().min(0).max(1);

/**
 * The `VIGIL_CONFIG` file. Unknown top-level keys are refused so a typo is caught at start,
 * not discovered as a silently ignored setting.
 */
export const fileConfigSchema = z
  .object({
    score: z
      .object({
        /** Weight per tag in [0, 1]; tags not named keep their default. */
        weights: z.record(z.string().min(1), weight).default({}),
        /** Score at or above which callers are advised to block. */
        block_threshold: weight.default(DEFAULT_BLOCK_THRESHOLD),
        /** Conditions that add weight or a custom tag (risk/rules/config.ts). */
        rules: scoreRulesSchema,
      })
      .strict()
      .default({ weights: {}, block_threshold: DEFAULT_BLOCK_THRESHOLD, rules: [] }),
    /** Velocity counters (behaviors/config.ts). */
    behaviors: behaviorsConfigSchema,
    /** IP intelligence lists (risk/intel/config.ts). */
    intel: intelConfigSchema.default(intelConfigSchema.parse({})),
  })
  .strict();

export type FileConfig = z.infer<typeof fileConfigSchema>;
