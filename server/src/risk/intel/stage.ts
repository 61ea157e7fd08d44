import { dirname } from 'node:path';
import type { EvaluationItem, InsightStage, StageLog, StageOutput, StageResult } from '../../pipeline/stage.js';
import { proxyEvidence, trustedProxySet } from './forwarding.js';
import { parseIp, type IpRangeSet } from './ip-set.js';
import type { IntelConfig } from './config.js';
import { IntelLists, resolveListPaths } from './lists.js';

/** `tor`, `vpn` and `proxy` from the operator's IP lists, and `proxy` from the request's forwarding headers. */
export class NetworkStage implements InsightStage {
  readonly name = 'network';

  constructor(
    readonly lists: IntelLists,
    private readonly trusted: IpRangeSet,
    private readonly reloadMs: number,
  ) {}

  evaluate(batch: readonly EvaluationItem[]): StageResult {
    const outputs = batch.map(({ event }): StageOutput => {
      const tags = new Set<string>(this.lists.tagsFor(event.ip === null ? null : parseIp(event.ip)));
      if (event.forwarding && proxyEvidence(event.forwarding, this.trusted)) tags.add('proxy');
      return tags.size > 0 ? { tags: [...tags] } : {};
    });
    return { outputs };
  }

  start(log: StageLog): void {
    this.lists.watch(this.reloadMs, log);
  }

  async close(): Promise<void> {
    this.lists.stop();
  }
}

export interface NetworkStageOptions {
  intel: IntelConfig;
  /** VIGIL_CONFIG: relative list paths are read from its folder, else from the working directory. */
  configPath: string | undefined;
  /** VIGIL_TRUSTED_PROXIES. */
  trustedProxies: readonly string[];
}

export function createNetworkStage(options: NetworkStageOptions): NetworkStage {
  const intel = options.intel;
  const baseDir = options.configPath ? dirname(options.configPath) : process.cwd();
  const lists = new IntelLists(resolveListPaths(intel, baseDir));
  lists.loadAll();
  return new NetworkStage(lists, trustedProxySet(options.trustedProxies), intel.reload_interval_seconds * 1000);
}
