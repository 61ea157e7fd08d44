import type { Source } from "./types.js";

export interface TimezoneReading {
  name: string | null;
  /** UTC offsets (minutes) in January and July: a DST-independent stand-in when the IANA name is missing. */
  offset_jan: number;
  offset_jul: number;
}

export const timezone: Source<TimezoneReading> = {
  name: "timezone",
  collect() {
    const year = new Date().getFullYear();
    let name: string | null = null;
    try {
      name = Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;
    } catch {
      name = null;
    }
    return {
      name,
      offset_jan: new Date(year, 0, 1).getTimezoneOffset(),
      offset_jul: new Date(year, 6, 1).getTimezoneOffset(),
    };
  },
};
