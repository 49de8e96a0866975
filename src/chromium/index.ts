export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from './launch-chromium.js';
