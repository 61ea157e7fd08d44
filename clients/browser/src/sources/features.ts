import type { Source } from "./types.js";

/** Web platform APIs whose presence separates engines and versions (they change on updates: weak evidence). */
export const FEATURE_PROBES: readonly string[] = [
  "BarcodeDetector",
  "Bluetooth",
  "CSSLayerBlockRule",
  "CompressionStream",
  "ContactsManager",
  "EyeDropper",
  "FileSystemHandle",
  "GPU",
  "HID",
  "IdleDetector",
  "InstallTrigger",
  "MediaSession",
  "NavigationHistoryEntry",
  "OffscreenCanvas",
  "PaymentRequest",
  "PushManager",
  "ReportingObserver",
  "Scheduler",
  "Serial",
  "SharedWorker",
  "SpeechSynthesisUtterance",
  "TrustedHTML",
  "USB",
  "ViewTransition",
  "VirtualKeyboard",
  "WakeLock",
  "WebTransport",
  "XRSystem",
  "ApplePaySession",
  "webkitSpeechRecognition",
  "chrome",
  "safari",
];

export const features: Source<string> = {
  name: "features",
  collect() {
    const w = window as unknown as Record<string, unknown>;
    return FEATURE_PROBES.map((name) => (name in w ? "1" : "0")).join("");
  },
};
