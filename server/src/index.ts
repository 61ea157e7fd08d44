export { createVigil, type Vigil } from './vigil.js';
export { loadConfig, type Config } from './config/load.js';
export { openDatabase } from './db/open.js';
