import { describe, expect, it } from 'vitest';
import { holds, parseCondition, type Condition } from './condition.js';

const c = (text: string) => parseCondition(text) as Condition;
const ctx = {
  behaviors: { tx_count_1h: { count: 6, sum: null }, none: { count: 0 } },
  properties: { amount: '1500', country: 'FR' },
  tags: ['vpn', 'new_device'],
  email_intel: { disposable: true },
  identity: null,
};

describe('rule conditions', () => {
  it('compares numbers, strings and booleans over behaviors, properties, tags and intel', () => {
    expect(holds(c('behaviors.tx_count_1h.count > 5'), ctx)).toBe(true);
    expect(holds(c('behaviors.tx_count_1h.count >= 7'), ctx)).toBe(false);
    expect(holds(c('behaviors.none.count < 1'), ctx)).toBe(true);
    expect(holds(c('properties.amount >= 1000'), ctx)).toBe(true); // numeric strings compare as numbers
    expect(holds(c('properties.country == "FR"'), ctx)).toBe(true);
    expect(holds(c("properties.country != 'FR'"), ctx)).toBe(false);
    expect(holds(c('tags contains vpn'), ctx)).toBe(true);
    expect(holds(c('email_intel.disposable == true'), ctx)).toBe(true);
    expect(holds(c('identity missing'), ctx)).toBe(true);
    expect(holds(c('properties.amount exists'), ctx)).toBe(true);
  });

  it('is false over missing data, so rules never fire on absent facts', () => {
    expect(holds(c('behaviors.unknown.count > 0'), ctx)).toBe(false);
    expect(holds(c('behaviors.tx_count_1h.sum > 0'), ctx)).toBe(false);
    expect(holds(c('properties.missing != "x"'), ctx)).toBe(false);
  });

  it('explains what it cannot read', () => {
    expect(parseCondition('behaviors.x.count >')).toMatch(/needs a value/);
    expect(parseCondition('amount > big')).toMatch(/needs a number/);
    expect(parseCondition('just words')).toMatch(/cannot read/);
  });
});
