// `node --import ./log-modules.mjs …`: installs module-log-hook.mjs before the program starts.
import { register } from 'node:module';

register(new URL('./module-log-hook.mjs', import.meta.url));
