import { describe, expect, it } from "vitest";
import { resolveEndpoints, VigilConfigError } from "./endpoints.js";

describe("resolveEndpoints", () => {
  it("derives the /js routes from the service address", () => {
    expect(resolveEndpoints("https://vigil.example.com/js")).toEqual({
      base: "https://vigil.example.com/js",
      collect: "https://vigil.example.com/js/collect",
      events: "https://vigil.example.com/js/events",
    });
    expect(resolveEndpoints("https://example.com/risk/js/").collect).toBe("https://example.com/risk/js/collect");
    expect(resolveEndpoints("/js", "https://shop.example/cart?x=1").events).toBe("https://shop.example/js/events");
  });

  it.each([[undefined], [""], ["not a url"], ["ftp://x.example/js"], ["https://vigil.example.com"], ["https://vigil.example.com/jsx"]])(
    "refuses %s with a clear message",
    (url) => {
      expect(() => resolveEndpoints(url)).toThrow(VigilConfigError);
    },
  );
});
