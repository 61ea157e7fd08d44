import { describe, expect, it } from 'vitest';
import { formatGoals, judge, type TargetFigures } from './goals.js';

const figures = (perBare: number, cpuUs: number, steadyP99s: number[]): TargetFigures => ({ perBare, cpuUs, steadyP99s });

describe('the load benchmark goals', () => {
  it("compares Vigil with the floor through each one's ratio to the bare route, and CPU as the floor's over Vigil's", () => {
    const goals = judge({ postgres: figures(0.12, 240, [5, 6, 7]), floor: figures(0.4, 60, [2, 2, 2]) });
    expect(goals.map((g) => [g.name, g.value, g.met])).toEqual([
      ['Vigil PostgreSQL ÷ durable floor, events/s', '0.30', false],
      ['Vigil PostgreSQL ÷ durable floor, CPU per event (floor µs ÷ Vigil µs)', '0.25', false],
      ['Vigil PostgreSQL, steady p99', '7.0 ms (worst of 5.0 / 6.0 / 7.0)', true],
    ]);
  });

  it('holds the steady p99 to every round, not the median', () => {
    const [goal] = judge({ pglite: figures(0.1, 300, [11, 12, 16]) });
    expect(goal).toMatchObject({ name: 'Vigil PGlite, steady p99', met: false });
  });

  it('meets a ratio exactly at its limit, and judges PGlite against PostgreSQL only when both ran', () => {
    const goals = judge({ pglite: figures(0.08, 300, [1]), postgres: figures(0.1, 240, [1]), floor: figures(0.1, 180, [1]) });
    expect(goals.find((g) => g.name.startsWith('Vigil PGlite ÷'))).toMatchObject({ value: '0.80', met: true });
    expect(goals.find((g) => g.name.endsWith('events/s') && g.name.includes('floor'))).toMatchObject({ value: '1.00', met: true });
    expect(judge({ pglite: figures(0.08, 300, [1]) }).map((g) => g.name)).toEqual(['Vigil PGlite, steady p99']);
  });

  it('prints one line per goal, saying whether it is met', () => {
    const text = formatGoals(judge({ postgres: figures(0.3, 80, [9]), floor: figures(0.35, 70, [3]) }));
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toMatch(/events\/s\s+0\.86\s+≥ 0\.75\s+met/);
    expect(text).toMatch(/steady p99\s+9\.0 ms .* met$/m);
  });
});
