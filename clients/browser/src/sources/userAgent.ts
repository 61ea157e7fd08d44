import type { Source } from "./types.js";

export interface UserAgentReading {
  user_agent: string;
  vendor: string | null;
  /** Client-hint brands with their major versions (Chromium, secure contexts). */
  brands: string[];
}

export const userAgent: Source<UserAgentReading> = {
  name: "user_agent",
  collect() {
    const data = (navigator as Navigator & { userAgentData?: { brands?: Array<{ brand: string; version: string }> } }).userAgentData;
    return {
      user_agent: navigator.userAgent,
      vendor: typeof navigator.vendor === "string" ? navigator.vendor : null,
      brands: (data?.brands ?? []).map((b) => `${b.brand}/${b.version}`),
    };
  },
};
