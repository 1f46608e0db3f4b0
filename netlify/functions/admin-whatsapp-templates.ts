import type { Config } from '@netlify/functions';
import type { TemplateList } from '../../src/lib/whatsapp/contract.ts';
import { WHATSAPP_TEMPLATES } from '../../src/lib/whatsapp/templates.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json } from '../../src/server/http/responses.ts';

/** GET /api/admin/whatsapp/templates (members): the approved templates (src/lib/whatsapp/templates.ts). */
export default endpoints('admin-whatsapp-templates', [
  {
    method: 'GET',
    path: '/api/admin/whatsapp/templates',
    access: 'member',
    async work() {
      const list: TemplateList = {
        templates: WHATSAPP_TEMPLATES.map(({ name, label, language, body }) => ({ name, label, language, body })),
      };
      return json(200, list, { 'Cache-Control': 'no-store' });
    },
  },
]);

export const config: Config = { path: '/api/admin/whatsapp/templates' };
