import type { Sql } from '../db/statement.js';
import type { Queryable } from '../db/handle.js';
import type { FactCache } from '../pipeline/fact-cache.js';
import type { DeviceInfo, Insights } from '../pipeline/insights.js';
import type { Sightings } from '../pipeline/sightings.js';
import { applyRules } from './rules/apply.js';
import type { ScoreRule } from './rules/config.js';
import { ruleContext } from './rules/context.js';
import { scoreTags } from './score.js';
import type { EvaluationInput, EvaluationItem, InsightStage, StageOutput } from '../pipeline/stage.js';
import { severityOf } from './tags.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RiskOptions {
  tagWeights: Readonly<Record<string, number>>;
  /** Insight sources, run in order; see risk/stages.ts. */
  stages: readonly InsightStage[];
  /** Score rules (config `score.rules`), evaluated after every stage. */
  rules?: readonly ScoreRule[];
}

function toItem(input: EvaluationInput, sightings: Sightings): EvaluationItem {
  const device = input.event.deviceId ? (sightings.devices.get(input.event.deviceId) ?? null) : null;
  const firstSeen = device?.firstSeen ?? sightings.handprints.get(input.handprintId) ?? input.event.occurredAt;
  const ageMs = Math.max(0, input.event.occurredAt.getTime() - firstSeen.getTime());
  return { ...input, device, ageDays: Math.floor(ageMs / DAY_MS), isNew: ageMs < DAY_MS };
}

/**
 * Turns stored facts into insights for a batch of fresh (non-replayed) events, between the batch's read and its
 * write, so what is answered is exactly what is stored. The built-in facts (age, new_device) come first, then
 * each stage's output is merged; trust and the score are decided last, over every tag. `facts` holds what each
 * stage's `read` returned, in stage order.
 */
export async function evaluateBatch(
  db: Queryable,
  inTransaction: boolean,
  batch: EvaluationInput[],
  sightings: Sightings,
  facts: readonly unknown[],
  options: RiskOptions,
): Promise<{ insights: Insights[]; writes: Sql[]; remember: ((cache: FactCache) => void)[] }> {
  const items = batch.map((input) => toItem(input, sightings));
  const outputs: StageOutput[][] = items.map(() => []);
  const writes: Sql[] = [];
  const remember: ((cache: FactCache) => void)[] = [];
  for (const [n, stage] of options.stages.entries()) {
    const result = await stage.evaluate(items, { facts: facts[n] ?? null, earlier: outputs, db, inTransaction });
    result.outputs.forEach((output, i) => outputs[i]!.push(output));
    if (result.writes) writes.push(...result.writes);
    if (result.remember) remember.push(result.remember);
  }
  return { insights: items.map((item, i) => assemble(item, outputs[i]!, options)), writes, remember };
}

function assemble(item: EvaluationItem, outputs: StageOutput[], options: RiskOptions): Insights {
  const { event } = item;
  const tags = new Set<string>();
  if (item.isNew) tags.add('new_device');
  let device: DeviceInfo = {
    is_registered: false,
    is_trusted: false,
    registered_to: null,
    registered_at: null,
    role: null,
    metadata: {},
    age_days: item.ageDays,
    is_new: item.isNew,
    model: item.device?.model ?? event.model,
    os_version: item.device?.osVersion ?? event.osVersion,
    status: 'unregistered',
  };
  let behaviors: Insights['behaviors'] = {};
  let emailIntel: Insights['email_intel'] = null;
  let phoneIntel: Insights['phone_intel'] = null;
  const warnings = [...event.warnings];
  for (const out of outputs) {
    out.tags?.forEach((t) => tags.add(t));
    if (out.device) device = { ...device, ...out.device };
    if (out.behaviors) behaviors = { ...behaviors, ...out.behaviors };
    if (out.email_intel !== undefined) emailIntel = out.email_intel;
    if (out.phone_intel !== undefined) phoneIntel = out.phone_intel;
    if (out.warnings) warnings.push(...out.warnings);
  }
  const fired = applyRules(options.rules ?? [], ruleContext(item, [...tags], behaviors, emailIntel, phoneIntel, device));
  fired.tags.forEach((t) => tags.add(t));
  const currentTags = [...tags];
  // Trusted: registered, active, and nothing Critical or High about this event.
  device.is_trusted = device.is_registered && device.status === 'active' && !currentTags.some((t) => ['critical', 'high'].includes(severityOf(t)));
  const score = scoreTags(currentTags, options.tagWeights, fired.contributions);
  return {
    event_id: item.eventId,
    device_id: event.deviceId,
    handprint_id: item.handprintId,
    current_tags: currentTags,
    risk_score: score.risk_score,
    score_breakdown: score.score_breakdown,
    device_id_details: { age: { days: item.ageDays } },
    behaviors,
    device,
    email_intel: emailIntel,
    phone_intel: phoneIntel,
    warnings,
  };
}
