import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { envSchema, type Env } from './env.js';
import { defaultTagWeights, fileConfigSchema, type FileConfig } from './file.js';
import type { ScoreRule } from '../risk/rules/config.js';
import { severityOf } from '../risk/tags.js';

export interface Config {
  env: Env;
  file: FileConfig;
  /** Weights after merging the file's over the defaults. */
  tagWeights: Record<string, number>;
  /** `score.rules` from the file. */
  scoreRules: ScoreRule[];
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
}

export function readFileConfig(path: string | undefined): FileConfig {
  if (!path) return fileConfigSchema.parse({});
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`VIGIL_CONFIG: cannot read ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = extname(path) === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new ConfigError(`VIGIL_CONFIG: ${path} is not valid ${extname(path) === '.json' ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
  }
  const parsed = fileConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new ConfigError(`VIGIL_CONFIG: ${path} is not valid:\n${describe(parsed.error)}`);
  return parsed.data;
}

/** Validates the environment and the config file once, at start. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(environment);
  if (!parsed.success) throw new ConfigError(`Invalid environment:\n${describe(parsed.error)}`);
  const env = parsed.data;
  if (env.DATABASE_REPLICA_URL && !env.DATABASE_URL)
    throw new ConfigError('DATABASE_REPLICA_URL needs DATABASE_URL: a replica serves reports of a PostgreSQL primary');
  const file = readFileConfig(env.VIGIL_CONFIG);
  const tagWeights = { ...defaultTagWeights, ...file.score.weights };
  for (const [tag, w] of Object.entries(tagWeights)) {
    // The promise to callers: any single Critical tag is enough to block.
    if (severityOf(tag) === 'critical' && w < file.score.block_threshold) {
      throw new ConfigError(
        `score.weights.${tag} is ${w}, below block_threshold ${file.score.block_threshold}: a Critical tag alone must reach the block threshold`,
      );
    }
  }
  return { env, file, tagWeights, scoreRules: file.score.rules };
}
