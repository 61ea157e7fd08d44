import type { Source } from "./types.js";

export interface PlatformReading {
  platform: string | null;
  /** navigator.userAgentData.platform (Chromium, secure contexts). */
  ua_platform: string | null;
  mobile: boolean | null;
  architecture: string | null;
  bitness: string | null;
  model: string | null;
  platform_version: string | null;
}

interface UaData {
  platform?: string;
  mobile?: boolean;
  getHighEntropyValues?(hints: string[]): Promise<Record<string, unknown>>;
}

export const platform: Source<PlatformReading> = {
  name: "platform",
  async collect() {
    const data = (navigator as Navigator & { userAgentData?: UaData }).userAgentData;
    let high: Record<string, unknown> = {};
    if (data?.getHighEntropyValues) {
      try {
        high = await data.getHighEntropyValues(["architecture", "bitness", "model", "platformVersion"]);
      } catch {
        high = {};
      }
    }
    const str = (v: unknown) => (typeof v === "string" ? v : null);
    return {
      platform: str(navigator.platform),
      ua_platform: str(data?.platform),
      mobile: typeof data?.mobile === "boolean" ? data.mobile : null,
      architecture: str(high.architecture),
      bitness: str(high.bitness),
      model: str(high.model),
      platform_version: str(high.platformVersion),
    };
  },
};
