import type { DeviceInfo, Insights } from '../../pipeline/insights.js';
import type { EvaluationItem } from '../../pipeline/stage.js';

/** What a rule's path can name: `event`, `identity`, `properties.*`, `behaviors.*`, `tags`, `email_intel.*`, … */
export function ruleContext(
  item: EvaluationItem,
  tags: string[],
  behaviors: Insights['behaviors'],
  emailIntel: Insights['email_intel'],
  phoneIntel: Insights['phone_intel'],
  device: DeviceInfo,
): Record<string, unknown> {
  const { event } = item;
  return {
    event: event.name,
    identity: event.identity,
    device_id: event.deviceId,
    handprint_id: item.handprintId,
    ip_address: event.ip,
    session_id: event.sessionId,
    properties: event.properties,
    behaviors,
    tags,
    email_intel: emailIntel,
    phone_intel: phoneIntel,
    device,
  };
}
