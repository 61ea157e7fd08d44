import { describe, expect, it } from "vitest";
import { countingRandom, mapStore, throwingStore } from "../../test/fakes.js";
import { DEVICE_ID_KEY, loadOrCreateDeviceId } from "./device-id.js";

describe("device_id", () => {
  it("is created once and written to localStorage and the cookie", () => {
    const local = mapStore();
    const cookie = mapStore();
    const id = loadOrCreateDeviceId([local, cookie], countingRandom());
    expect(id).toMatch(/^web_[a-z2-7]{26}$/);
    expect(local.data.get(DEVICE_ID_KEY)).toBe(id);
    expect(cookie.data.get(DEVICE_ID_KEY)).toBe(id);
    expect(loadOrCreateDeviceId([local, cookie], countingRandom())).toBe(id);
  });

  it("survives clearing one of the stores and repairs it", () => {
    const local = mapStore();
    const cookie = mapStore({ [DEVICE_ID_KEY]: "web_fromthecookie234567abcd" });
    expect(loadOrCreateDeviceId([local, cookie], countingRandom())).toBe("web_fromthecookie234567abcd");
    expect(local.data.get(DEVICE_ID_KEY)).toBe("web_fromthecookie234567abcd");
  });

  it("is new when all storage was cleared", () => {
    const first = loadOrCreateDeviceId([mapStore(), mapStore()], countingRandom());
    const random = countingRandom();
    random(100); // a different random stream
    expect(loadOrCreateDeviceId([mapStore(), mapStore()], random)).not.toBe(first);
  });

  it("ignores tampered values and still works when every store throws", () => {
    const local = mapStore({ [DEVICE_ID_KEY]: "<script>" });
    expect(loadOrCreateDeviceId([local], countingRandom())).toMatch(/^web_/);
    expect(loadOrCreateDeviceId([throwingStore(), throwingStore()], countingRandom())).toMatch(/^web_/);
  });
});
