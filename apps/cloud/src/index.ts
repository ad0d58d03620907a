export { loadConfig, type Config } from './config.ts';
export { createContext, closeContext, type AppContext } from './context.ts';
export { createApp } from './app.ts';
export { listen, type RunningServer } from './server.ts';
export { seedIfEmpty } from './bootstrap.ts';
export { SANDBOX_CREDENTIALS } from './db/seed.ts';
