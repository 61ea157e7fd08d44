import { hash64 } from "../hash.js";
import type { Source } from "./types.js";

export interface WebglReading {
  vendor: string;
  renderer: string;
  /** Unmasked GPU vendor/renderer (WEBGL_debug_renderer_info), null where the browser hides them. */
  unmasked_vendor: string | null;
  unmasked_renderer: string | null;
  version: string;
  shading_language: string;
  /** Hash of capability limits and supported extensions: differs between GPUs/drivers with the same name. */
  parameters: string;
  extensions: string;
}

export const webgl: Source<WebglReading> = {
  name: "webgl",
  collect() {
    const element = document.createElement("canvas");
    const gl = (element.getContext("webgl") ?? element.getContext("experimental-webgl")) as WebGLRenderingContext | null;
    if (!gl) throw new Error("webgl unavailable");
    try {
      const debug = gl.getExtension("WEBGL_debug_renderer_info");
      const str = (p: number) => String(gl.getParameter(p) ?? "");
      const limits = [
        gl.MAX_TEXTURE_SIZE,
        gl.MAX_CUBE_MAP_TEXTURE_SIZE,
        gl.MAX_RENDERBUFFER_SIZE,
        gl.MAX_VERTEX_ATTRIBS,
        gl.MAX_VARYING_VECTORS,
        gl.MAX_VERTEX_UNIFORM_VECTORS,
        gl.MAX_FRAGMENT_UNIFORM_VECTORS,
        gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS,
        gl.MAX_TEXTURE_IMAGE_UNITS,
        gl.MAX_VERTEX_TEXTURE_IMAGE_UNITS,
        gl.MAX_VIEWPORT_DIMS,
        gl.ALIASED_LINE_WIDTH_RANGE,
        gl.ALIASED_POINT_SIZE_RANGE,
      ].map((p) => {
        const v: unknown = gl.getParameter(p);
        return typeof v === "object" && v !== null ? Array.from(v as ArrayLike<number>).join(",") : String(v);
      });
      const precision = [gl.VERTEX_SHADER, gl.FRAGMENT_SHADER].flatMap((shader) =>
        [gl.HIGH_FLOAT, gl.MEDIUM_FLOAT, gl.HIGH_INT].map((kind) => {
          const f = gl.getShaderPrecisionFormat(shader, kind);
          return f ? `${f.rangeMin}/${f.rangeMax}/${f.precision}` : "-";
        }),
      );
      return {
        vendor: str(gl.VENDOR),
        renderer: str(gl.RENDERER),
        unmasked_vendor: debug ? str(debug.UNMASKED_VENDOR_WEBGL) : null,
        unmasked_renderer: debug ? str(debug.UNMASKED_RENDERER_WEBGL) : null,
        version: str(gl.VERSION),
        shading_language: str(gl.SHADING_LANGUAGE_VERSION),
        parameters: hash64(limits.concat(precision).join(";")),
        extensions: hash64((gl.getSupportedExtensions() ?? []).slice().sort().join(",")),
      };
    } finally {
      // Browsers cap live WebGL contexts per page; give ours back at once.
      gl.getExtension("WEBGL_lose_context")?.loseContext();
    }
  },
};
