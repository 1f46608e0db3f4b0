import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FORM_TITLES,
  LEAD_FORMS,
  LEAD_KIND_REGISTRY,
  type LeadForm,
  type LeadKindDefinition,
} from '../../src/lib/leads/kinds.ts';
import { loadFunctions } from '../../src/server/local/functions.ts';
import { dailySummary } from '../../src/server/notifications/summary.ts';
import { memberRequest, setupAdmin } from '../support/admin.ts';
import { estimate, partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #24, item 1: every consumer of the registry of lead kinds covers
 * every registered kind. The consumers take their lists from the registry and
 * this test iterates it: a kind (or form) one of them forgets fails here.
 */

/** A valid body for each form: a new form without one is a type error here, and a failure below. */
const SAMPLES: Record<LeadForm, (name: string, phone: string) => Record<string, unknown>> = {
  cotizacion_rapida: (name, phone) => quickQuote({ name, phone }),
  prefiltro: (name, phone) => preFilter({ name, phone }),
  estimacion: (name, phone) => estimate({ name, phone }),
  socios: (name, phone) => partnerApplication({ name, phone }),
};

const ENTRIES = LEAD_KIND_REGISTRY as readonly LeadKindDefinition[];
const SENT = ENTRIES.flatMap((entry) =>
  entry.forms.map(({ form }) => {
    const index = LEAD_FORMS.indexOf(form as LeadForm);
    return { entry, form: form as LeadForm, name: `Registro ${form}`, phone: `999700000${index}` };
  }),
);
const e164 = (phone: string) => `+52${phone}`;

/** The form definitions of src/lib/forms, found by their shape. */
const FORM_DEFINITIONS = Object.values(
  import.meta.glob(['../../src/lib/forms/*.ts', '!../../src/lib/forms/*.test.ts'], { eager: true }),
)
  .flatMap((module) => Object.values(module as Record<string, unknown>))
  .filter((value): value is { endpoint: string } => typeof value === 'object' && value !== null && 'sections' in value);

describe('the registry of lead kinds', () => {
  it('gives each kind its table, columns, texts, CSV, endpoint function and form definition', async () => {
    const functions = await loadFunctions();
    const functionPaths = functions.flatMap(({ config }) => [config?.path ?? []].flat());
    for (const entry of ENTRIES) {
      expect(entry.columns.length, entry.kind).toBeGreaterThan(0);
      for (const text of Object.values(entry.texts)) expect(text.trim(), entry.kind).not.toBe('');
      expect(entry.csvFile, entry.kind).toMatch(/^[a-z_]+\.csv$/);
      expect(functionPaths, `${entry.kind}: a function serves ${entry.endpoint}`).toContain(entry.endpoint);
      expect(
        FORM_DEFINITIONS.some((definition) => definition.endpoint === entry.endpoint),
        `${entry.kind}: a form definition posts to ${entry.endpoint}`,
      ).toBe(true);
      expect(entry.forms.length, entry.kind).toBeGreaterThan(0);
      if (entry.forms.length > 1) expect(entry.formColumn, `${entry.kind}: which column names the form`).toBeTruthy();
      for (const form of entry.forms) {
        expect(
          [form.label, form.title, form.notice].every((text) => text.trim() !== ''),
          form.form,
        ).toBe(true);
      }
    }
    const unique = (values: unknown[]) => new Set(values).size === values.length;
    expect(unique(ENTRIES.map((entry) => entry.kind))).toBe(true);
    expect(unique(ENTRIES.map((entry) => entry.table))).toBe(true);
    expect(unique(ENTRIES.map((entry) => entry.csvFile))).toBe(true);
    expect(unique(ENTRIES.flatMap((entry) => entry.forms.map((form) => form.order)))).toBe(true);
    expect(LEAD_FORMS).toHaveLength(ENTRIES.flatMap((entry) => entry.forms).length);
  });
});

describe('every consumer of the registry, against one lead of each form', () => {
  let server: RunningServer;
  let admin: string;
  const call = memberRequest(() => server.url);
  const get = async <T>(path: string): Promise<T> => {
    const response = await call(admin, path);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const contactOf = async (phone: string) =>
    (await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [e164(phone)]))[0]?.id as string;

  beforeAll(async () => {
    server = await startServer();
    admin = await setupAdmin(server.url);
    for (const { entry, form, name, phone } of SENT) {
      const answer = await postJson(`${server.url}${entry.endpoint}`, SAMPLES[form](name, phone));
      expect(answer.status, `${entry.endpoint} (${form})`).toBe(201);
    }
  });

  it('lets each kind’s notifications be stored (the migration’s CHECK)', async () => {
    const [check] = await sql<{ definition: string }>(
      `SELECT string_agg(pg_get_constraintdef(oid), ' ') AS definition FROM pg_constraint
       WHERE conrelid = 'notification_deliveries'::regclass`,
    );
    for (const entry of ENTRIES) expect(check?.definition, entry.kind).toContain(`'${entry.kind}'`);
  });

  it('lists each lead in its kind’s tab and CSV, with the kind’s columns', async () => {
    for (const { entry, name } of SENT) {
      const page = await get<{ items: { name: string }[]; total: number }>(`/api/admin/${entry.kind}`);
      expect(
        page.items.map((item) => item.name),
        entry.kind,
      ).toContain(name);
      const csv = await (await call(admin, `/api/admin/${entry.kind}/export.csv`)).text();
      expect(csv.split('\r\n')[0], entry.kind).toBe(
        `${['Fecha', ...entry.columns.map((column) => column.header)].join(',')}`,
      );
      expect(csv, entry.kind).toContain(name);
    }
  });

  it('finds each person in the contacts by their form, with the kind’s contact kind, in the list and its CSV', async () => {
    for (const { entry, form, name, phone } of SENT) {
      const page = await get<{ items: { phone: string; kinds: string[] }[] }>(`/api/admin/contacts?form=${form}`);
      expect(
        page.items.map((item) => item.phone),
        form,
      ).toEqual([e164(phone)]);
      expect(page.items[0]?.kinds, form).toContain(entry.contactKind);
      const csv = await (await call(admin, `/api/admin/contacts/export.csv?form=${form}`)).text();
      expect(csv, form).toContain(name);
    }
  });

  it('shows each lead in its contact’s timeline, with its form and fields', async () => {
    for (const { entry, form, name, phone } of SENT) {
      const detail = await get<{ requests: number; timeline: { type: string; form?: string; kind?: string }[] }>(
        `/api/admin/contacts/${await contactOf(phone)}`,
      );
      expect(detail.requests, name).toBe(1);
      expect(detail.timeline.filter((entry) => entry.type === 'request')).toMatchObject([{ form, kind: entry.kind }]);
    }
  });

  it('counts each form in the metrics', async () => {
    const metrics = await get<{ byForm: Record<string, number>; leadsPerWeek: { counts: Record<string, number> }[] }>(
      '/api/admin/metrics',
    );
    expect(metrics.byForm).toEqual(Object.fromEntries(LEAD_FORMS.map((form) => [form, 1])));
    expect(metrics.leadsPerWeek.at(-1)?.counts).toEqual(metrics.byForm);
  });

  it('gives each lead with the person’s data (ARCO)', async () => {
    for (const { entry, name, phone } of SENT) {
      const data = await get<Record<string, { name?: string }[]>>(
        `/api/admin/contacts/${await contactOf(phone)}/datos.json`,
      );
      expect(
        data[entry.table]?.map((row) => row.name),
        entry.table,
      ).toEqual([name]);
      const csv = await (await call(admin, `/api/admin/contacts/${await contactOf(phone)}/datos.csv`)).text();
      expect(csv, entry.table).toContain(`${entry.table},`);
    }
  });

  it('names each lead in the daily summary', async () => {
    // Yesterday at noon in Mérida, as seen from the summary of 11 January.
    for (const { entry, phone } of SENT) {
      await sql(`UPDATE ${entry.table} SET created_at = '2026-01-10T18:00:00Z' WHERE phone = $1`, [e164(phone)]);
    }
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      const summary = await dailySummary(pool, '2026-01-11', 'https://www.ceibacasas.mx');
      expect(summary.leads.map((lead) => lead.title).sort()).toEqual(SENT.map(({ form }) => FORM_TITLES[form]).sort());
      expect(summary.leads.map((lead) => lead.phone).sort()).toEqual(SENT.map(({ phone }) => e164(phone)).sort());
    } finally {
      await pool.end();
    }
  });

  it('deletes a lead of each kind with its activity entry, and neither when the entry cannot be written', async () => {
    const leadOf = async (entry: LeadKindDefinition, name: string) =>
      (await sql<{ id: string }>(`SELECT id FROM ${entry.table} WHERE name = $1`, [name]))[0]?.id as string;
    const [first, ...rest] = SENT;
    if (!first) throw new Error('no lead kind registered');

    await sql(`CREATE FUNCTION refuse_activity() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'activity refused'; END $$`);
    await sql(
      'CREATE TRIGGER refuse_activity BEFORE INSERT ON activity_log FOR EACH ROW EXECUTE FUNCTION refuse_activity()',
    );
    try {
      const id = await leadOf(first.entry, first.name);
      const refused = await call(admin, `/api/admin/${first.entry.kind}/${id}`, { method: 'DELETE' });
      expect(refused.status).toBe(503);
      expect(await countRows(first.entry.table, 'id = $1', [id])).toBe(1);
    } finally {
      await sql('DROP TRIGGER refuse_activity ON activity_log');
      await sql('DROP FUNCTION refuse_activity()');
    }

    for (const { entry, name } of [first, ...rest]) {
      const id = await leadOf(entry, name);
      expect((await call(admin, `/api/admin/${entry.kind}/${id}`, { method: 'DELETE' })).status, entry.kind).toBe(204);
      expect(await countRows(entry.table, 'id = $1', [id])).toBe(0);
      expect(await countRows('activity_log', `kind = 'deletion' AND details ->> 'id' = $1`, [id])).toBe(1);
    }
  });
});
