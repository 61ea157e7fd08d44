import { hash64 } from "../hash.js";
import type { Source } from "./types.js";

export interface AudioReading {
  /** Sum of absolute sample values of a compressed triangle wave: varies with the audio stack and CPU maths. */
  sum: string;
  hash: string;
}

type OfflineCtor = new (channels: number, length: number, sampleRate: number) => OfflineAudioContext;

export const audio: Source<AudioReading> = {
  name: "audio",
  async collect() {
    const w = window as unknown as { OfflineAudioContext?: OfflineCtor; webkitOfflineAudioContext?: OfflineCtor };
    const Ctor = w.OfflineAudioContext ?? w.webkitOfflineAudioContext;
    if (!Ctor) throw new Error("OfflineAudioContext unavailable");
    const ctx = new Ctor(1, 5000, 44100);
    const oscillator = ctx.createOscillator();
    oscillator.type = "triangle";
    oscillator.frequency.value = 10000;
    const compressor = ctx.createDynamicsCompressor();
    compressor.threshold.value = -50;
    compressor.knee.value = 40;
    compressor.ratio.value = 12;
    compressor.attack.value = 0;
    compressor.release.value = 0.25;
    oscillator.connect(compressor);
    compressor.connect(ctx.destination);
    oscillator.start(0);
    const buffer = await render(ctx);
    const samples = buffer.getChannelData(0).subarray(4500, 5000);
    let sum = 0;
    for (let i = 0; i < samples.length; i++) sum += Math.abs(samples[i] ?? 0);
    return { sum: sum.toPrecision(12), hash: hash64(Array.from(samples, (s) => s.toPrecision(8)).join(",")) };
  },
};

function render(ctx: OfflineAudioContext): Promise<AudioBuffer> {
  // Old Safari only reports through oncomplete and returns undefined from startRendering().
  return new Promise((resolve, reject) => {
    ctx.oncomplete = (event) => resolve(event.renderedBuffer);
    const started = ctx.startRendering() as Promise<AudioBuffer> | undefined;
    started?.then(resolve, reject);
  });
}
