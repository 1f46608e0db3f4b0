import type { Config } from '@netlify/functions';
import { adminExists } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json } from '../../src/server/http/responses.ts';

/** GET /api/admin-exists: whether the one-time setup has been done. */
export default endpoints('admin-exists', [
  {
    method: 'GET',
    path: '/api/admin-exists',
    access: 'public',
    work: async ({ database }) => json(200, { exists: await database(adminExists) }),
  },
]);

export const config: Config = { path: '/api/admin-exists' };
