import { dirname } from 'node:path';
import type { Config } from '../../config/load.js';
import type { EvaluationItem, InsightStage, StageLog, StageOutput, StageResult } from '../stage.js';
import { proxyEvidence, trustedProxySet } from './forwarding.js';
import { parseIp, type IpRangeSet } from './ip-set.js';
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

export function createNetworkStage(config: Config): NetworkStage {
  const intel = config.file.intel;
  const baseDir = config.env.VIGIL_CONFIG ? dirname(config.env.VIGIL_CONFIG) : process.cwd();
  const lists = new IntelLists(resolveListPaths(intel, baseDir));
  lists.loadAll();
  return new NetworkStage(lists, trustedProxySet(config.env.VIGIL_TRUSTED_PROXIES), intel.reload_interval_seconds * 1000);
}
