'use server';

import { revalidatePath } from 'next/cache';
import type { ActionResult } from '../../shared/action-result';
import { createWebhookSubscription, deleteWebhookSubscription, redeliverWebhookMessage, setWebhookEnabled } from '../vigil/webhooks';
import { perform, refuse, text } from './perform';

const list = (value: string) =>
  value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export async function createWebhookAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const url = text(form, 'url');
  const eventTypes = form.getAll('event_types').filter((v): v is string => typeof v === 'string');
  const threshold = text(form, 'score_threshold');
  if (!url) return refuse('The receiver URL is required.');
  if (eventTypes.length === 0) return refuse('Choose at least one event type.');
  const scoreThreshold = threshold === '' ? null : Number(threshold);
  if (scoreThreshold !== null && !(scoreThreshold >= 0 && scoreThreshold <= 1)) return refuse('Score threshold: a number from 0 to 1.');
  const result = await perform(async (token) => {
    const created = await createWebhookSubscription(token, {
      url,
      eventTypes,
      tags: list(text(form, 'tags')),
      scoreThreshold,
      description: text(form, 'description'),
    });
    return { message: `Subscription ${created.id} created. Give the receiver this signing secret; it is not shown again.`, secret: created.secret };
  });
  if (result.ok) revalidatePath('/webhooks');
  return result;
}

export async function toggleWebhookAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  const enable = text(form, 'enable') === '1';
  if (!id) return refuse('No subscription given.');
  const result = await perform(async (token) => {
    await setWebhookEnabled(token, id, enable);
    return enable ? `Subscription ${id} enabled.` : `Subscription ${id} disabled: nothing new is sent to it.`;
  });
  if (result.ok) revalidatePath('/webhooks');
  return result;
}

export async function deleteWebhookAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  if (!id) return refuse('No subscription given.');
  const result = await perform(async (token) => {
    await deleteWebhookSubscription(token, id);
    return `Subscription ${id} deleted; its pending messages are cancelled.`;
  });
  if (result.ok) revalidatePath('/webhooks');
  return result;
}

export async function redeliverWebhookAction(_previous: ActionResult, form: FormData): Promise<ActionResult> {
  const id = text(form, 'id');
  if (!id) return refuse('No message given.');
  const result = await perform(async (token) => {
    const sent = await redeliverWebhookMessage(token, id);
    return sent.status !== null && sent.status < 300
      ? `Message ${id} sent again: ${sent.status} in ${sent.durationMs} ms.`
      : `Message ${id} sent again, not accepted: ${sent.status ?? 'no answer'}${sent.error ? ` (${sent.error})` : ''}.`;
  });
  if (result.ok) revalidatePath('/webhooks');
  return result;
}
