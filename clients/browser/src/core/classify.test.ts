import { describe, expect, it } from "vitest";
import { backoffMs, classify, parseRetryAfter } from "./classify.js";

const NOW = Date.UTC(2025, 0, 1);

describe("response classification", () => {
  it.each([
    [200, "done"], [201, "done"], [204, "done"],
    [408, "retry"], [429, "retry"], [500, "retry"], [502, "retry"], [503, "retry"],
    [413, "shrink"],
    [400, "drop"], [401, "drop"], [403, "drop"], [404, "drop"], [415, "drop"], [422, "drop"],
  ])("status %i → %s", (status, kind) => {
    expect(classify(status, null, NOW).kind).toBe(kind);
  });

  it("carries Retry-After into retries", () => {
    expect(classify(429, "7", NOW)).toEqual({ kind: "retry", afterMs: 7000 });
    expect(classify(503, new Date(NOW + 90_000).toUTCString(), NOW)).toEqual({ kind: "retry", afterMs: 90_000 });
  });

  it("parses Retry-After seconds and dates, ignores garbage, clamps to [0, 1 h]", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter(" 2.5 ", NOW)).toBe(2500);
    expect(parseRetryAfter(new Date(NOW - 5000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter("999999", NOW)).toBe(3_600_000);
    expect(parseRetryAfter("soon", NOW)).toBeNull();
    expect(parseRetryAfter(null, NOW)).toBeNull();
  });

  it("backs off exponentially with jitter and a cap", () => {
    expect(backoffMs(1, 1)).toBe(1000);
    expect(backoffMs(1, 0)).toBe(500);
    expect(backoffMs(4, 1)).toBe(8000);
    expect(backoffMs(30, 1)).toBe(300_000);
  });
});
