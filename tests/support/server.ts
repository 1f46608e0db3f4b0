export { postJson, type RunningServer, spawnServer as startServer } from './spawn-server.ts';
