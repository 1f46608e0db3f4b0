import type { Config } from '@netlify/functions';
import {
  CAMPAIGN_COLUMNS,
  CAMPAIGN_LEVEL_LABELS,
  type CampaignQuery,
  type CampaignReport,
  campaignQuerySchema,
  costPer,
  spendSchema,
} from '../../src/lib/admin/campaigns.ts';
import { recordActivity } from '../../src/server/audit/activity.ts';
import { campaignReport, saveSpend } from '../../src/server/contacts/campaigns.ts';
import { BOM, csvLine } from '../../src/server/http/csv.ts';
import { Answered, endpoints } from '../../src/server/http/endpoint.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const INVALID = 'Periodo no válido.';

function queryOf(url: URL): CampaignQuery {
  const parsed = campaignQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message;
    throw new Answered(jsonError(400, message && !message.startsWith('Invalid') ? message : INVALID));
  }
  return parsed.data;
}

const pesos = (value: number | null) => (value === null ? '' : String(value));

/** The report as a spreadsheet: one line a row, its costs per result, and the totals last. */
function reportCsv(report: CampaignReport): string {
  const header = [
    'Fuente',
    'Campaña',
    'Anuncio',
    ...CAMPAIGN_COLUMNS.map(([, label]) => label),
    'Costo por persona (MXN)',
    'Costo por venta (MXN)',
  ];
  const line = (label: [string, string, string], figures: CampaignReport['totals']) => [
    ...label,
    ...CAMPAIGN_COLUMNS.map(([key]) => pesos(figures[key])),
    pesos(costPer(figures.spendMxn, figures.contacts)),
    pesos(costPer(figures.spendMxn, figures.won)),
  ];
  const lines = [
    header,
    ...report.rows.map((row) => line([row.source ?? '(sin fuente)', row.campaign ?? '', row.ad ?? ''], row)),
    line(['Total', '', ''], report.totals),
  ];
  // Byte order mark: Excel reads UTF-8 (accents) only with it; every cell formula-safe (csvRow).
  return `${BOM}${lines.map(csvLine).join('')}`;
}

/**
 * The campaign report (issue #43, part 3):
 * GET /api/admin/campaigns?from=2026-09&to=2026-11&level=campaign (members);
 * GET /api/admin/campaigns/export.csv?… (administrators; on the activity log);
 * POST /api/admin/campaigns/spend {source, campaign, month, amountMxn} (administrators, same origin).
 */
export default endpoints('admin-campaigns', [
  {
    method: 'GET',
    path: '/api/admin/campaigns',
    access: 'member',
    async work({ db, url }) {
      return json(200, await campaignReport(db, queryOf(url)));
    },
  },
  {
    method: 'GET',
    path: '/api/admin/campaigns/export.csv',
    access: 'admin',
    async work({ db, url, actor }) {
      const query = queryOf(url);
      const report = await campaignReport(db, query);
      await recordActivity(db, {
        actor,
        kind: 'export',
        summary: `Exportó el reporte de campañas (${CAMPAIGN_LEVEL_LABELS[report.level].toLowerCase()}, ${report.from} a ${report.to})`,
        details: { file: 'campanas.csv', ...query },
      });
      return new Response(reportCsv(report), {
        status: 200,
        headers: {
          ...API_HEADERS,
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="campanas-${report.from}-${report.to}.csv"`,
        },
      });
    },
  },
  {
    method: 'POST',
    path: '/api/admin/campaigns/spend',
    access: 'admin',
    async work({ db, body, user, actor }) {
      const spend = await body(spendSchema, 'Revisa el gasto de la campaña.');
      await db.transaction(async (tx) => {
        await saveSpend(tx, spend, user.id);
        await recordActivity(tx, {
          actor,
          kind: 'campaign_spend',
          summary: `Registró $${spend.amountMxn} MXN de gasto de «${spend.campaign}» (${spend.source}) en ${spend.month}`,
          details: spend,
        });
      });
      return json(200, { saved: true });
    },
  },
]);

export const config: Config = {
  path: ['/api/admin/campaigns', '/api/admin/campaigns/export.csv', '/api/admin/campaigns/spend'],
};
