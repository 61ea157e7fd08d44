// Debian's Chromium with the flags every package's browser tests share.
export { CHROMIUM_PATH, launchChromium } from '@vigil/test-kit';
