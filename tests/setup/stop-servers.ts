import { afterAll } from 'vitest';
import { stopAllServers } from '../support/spawn-server.ts';

// Registered while the file is collected: an afterAll added inside a beforeAll
// is silently ignored by Vitest, which once left every test server running.
afterAll(() => stopAllServers());
