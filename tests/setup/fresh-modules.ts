import { vi } from 'vitest';

/**
 * Files share their worker (`isolate: false` in tests/vitest.config.ts): the thread, Vitest's runtime and
 * the packages of node_modules are loaded once per worker. Our own modules are not shared: before each file
 * they are evaluated again, as with Vitest's isolation, so the config read once, the database pools and every
 * cache of src/ start empty; and the environment is the worker's first one again.
 */
const worker = globalThis as { firstEnvironment?: NodeJS.ProcessEnv; filesStarted?: number };
worker.firstEnvironment ??= { ...process.env };
worker.filesStarted = (worker.filesStarted ?? 0) + 1;
const first = worker.firstEnvironment;
for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
Object.assign(process.env, first);
vi.unstubAllEnvs();
vi.unstubAllGlobals();
vi.useRealTimers();
vi.resetModules();
