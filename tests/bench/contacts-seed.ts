/**
 * The data of `bench:admin`: contacts and their leads, written by the database
 * itself (generate_series) in a few seconds, as the schema of
 * db/migrations/0004_contacts.sql wants them (every lead on its contact).
 */
import type pg from 'pg';
import { LEAD_KINDS, type LeadKind } from '../../src/lib/admin/columns.ts';

export const LEAD_TABLES: Record<LeadKind, string> = {
  'quick-quotes': 'cotizaciones_rapidas',
  'quote-requests': 'quote_requests',
  'partner-applications': 'partner_applications',
};

const pick = (values: readonly (string | null)[]) =>
  `(ARRAY[${values.map((value) => (value === null ? 'NULL' : `'${value}'`)).join(', ')}]::text[])[1 + floor(random() * ${values.length})::int]`;

/**
 * One contact per n (phone +5299 and n on 8 digits), with its leads: n % 4 says
 * which (0: a quick quote and a pre-filter; 1: two quick quotes and a
 * pre-filter; 2: a quick quote, a pre-filter, an estimate and two partner
 * applications; 3: two partner applications), so each lead table gets `rows` rows
 * when `rows` is a multiple of 4. A contact's leads come `step` apart from its
 * first one, within the last 52 weeks; states, campaigns, names and places vary.
 */
function seedStatements(rows: number): string[] {
  return [
    'SELECT setseed(0.42)',
    `CREATE TEMP TABLE bench_contacts AS
       SELECT n, gen_random_uuid() AS id, '+5299' || lpad(n::text, 8, '0') AS phone,
              ${pick(['José', 'María', 'Ana', 'Luis', 'Jesús', 'Sofía', 'Andrés', 'Carmen', 'Raúl', 'Lucía', 'Pedro', 'Diana'])}
                || ' ' || ${pick(['Pérez', 'Canul', 'Chan', 'May', 'Gómez', 'Martínez', 'Pech', 'Uc', 'Hernández', 'Ek'])} AS name,
              CASE WHEN random() < 0.6 THEN 'prospecto' || n || '@correo.mx' END AS email,
              ${pick(['Mérida', 'Mérida', 'Progreso', 'Tekantó', 'Valladolid', 'Umán', 'Kanasín', 'Tulum'])} AS municipality,
              ${pick(['facebook', 'google', 'instagram'])} AS utm_source,
              ${pick(['casas-yucatan', 'socios-riviera', 'credito-infonavit', 'remarketing', null])} AS utm_campaign,
              random() AS state_roll,
              ${pick(['sin_presupuesto', 'sin_terreno', 'eligio_otra_opcion', 'no_responde', 'otro'])} AS reason,
              now() - random() * interval '364 days' AS first_at,
              (1 + floor(random() * 96)) * interval '1 hour' AS step,
              floor(random() * 4320) * interval '1 minute' AS moved_after,
              floor(random() * 30)::int AS next_in_days,
              CASE n % 4 WHEN 0 THEN 1 WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE 0 END AS quick,
              CASE n % 4 WHEN 2 THEN 2 WHEN 3 THEN 0 ELSE 1 END AS quotes,
              CASE WHEN n % 4 >= 2 THEN 2 ELSE 0 END AS partners
       FROM generate_series(1, ${rows}) AS n`,
    `ALTER TABLE bench_contacts ADD COLUMN state text, ADD COLUMN last_at timestamptz`,
    `UPDATE bench_contacts SET
         state = CASE WHEN state_roll < 0.30 THEN 'nuevo' WHEN state_roll < 0.55 THEN 'contactado'
                      WHEN state_roll < 0.75 THEN 'en_seguimiento' WHEN state_roll < 0.85 THEN 'cerrado_ganado'
                      ELSE 'cerrado_perdido' END,
         last_at = least(now(), first_at + step * (quick + quotes + partners - 1))`,
    `INSERT INTO contacts (id, phone, name, email, municipality, is_buyer, is_partner, state, lost_reason,
                            next_contact_at, reminded_for, first_touch, last_touch, created_at, last_activity_at, first_moved_at,
                            version)
       SELECT id, phone, name, email, municipality, quick + quotes > 0, partners > 0, state,
              CASE WHEN state = 'cerrado_perdido' THEN reason END,
              CASE WHEN state IN ('contactado', 'en_seguimiento')
                   THEN ((current_date + next_in_days - 7) + time '10:00') AT TIME ZONE 'America/Merida' END,
              -- The past ones were reminded already (as the migration leaves them).
              CASE WHEN state IN ('contactado', 'en_seguimiento') AND next_in_days < 7
                   THEN ((current_date + next_in_days - 7) + time '10:00') AT TIME ZONE 'America/Merida' END,
              jsonb_strip_nulls(jsonb_build_object('utm_source', utm_source, 'utm_campaign', utm_campaign, 'landing_path', '/')),
              jsonb_strip_nulls(jsonb_build_object('utm_source', utm_source, 'utm_campaign', utm_campaign, 'landing_path', '/')),
              first_at, last_at,
              CASE WHEN state <> 'nuevo' THEN least(now(), first_at + moved_after) END,
              CASE state WHEN 'nuevo' THEN 1 WHEN 'contactado' THEN 2 WHEN 'en_seguimiento' THEN 3 ELSE 4 END
       FROM bench_contacts`,
    `INSERT INTO cotizaciones_rapidas (contact_id, name, phone, email, origin, utm_source, utm_campaign, landing_path,
                                         created_at)
       SELECT c.id, c.name, c.phone, c.email, CASE WHEN j = 1 THEN 'hero' ELSE 'paths' END, c.utm_source, c.utm_campaign,
              '/', least(now(), c.first_at + c.step * (j - 1))
       FROM bench_contacts c CROSS JOIN LATERAL generate_series(1, c.quick) AS j`,
    `INSERT INTO quote_requests (contact_id, source, name, phone, email, state, municipality, has_land, need_land_help,
                                   house_size, levels, finishes, budget, timeline, objective, utm_source, utm_campaign,
                                   landing_path, created_at)
       SELECT c.id, CASE WHEN j = 1 THEN 'prefiltro' ELSE 'estimacion' END, c.name, c.phone, c.email, 'Yucatán',
              c.municipality, CASE WHEN j = 1 THEN 'tengo-terreno' ELSE 'no' END,
              CASE WHEN j = 1 THEN '0-60-dias' END, CASE WHEN j = 1 THEN 'vivienda-propia' END,
              CASE WHEN j = 2 THEN 1 END, CASE WHEN j = 2 THEN 'medio' END, CASE WHEN j = 2 THEN '500k-800k' END,
              CASE WHEN j = 2 THEN '1-3 meses' END, CASE WHEN j = 2 THEN 'cotizacion' END,
              c.utm_source, c.utm_campaign, '/', least(now(), c.first_at + c.step * (c.quick + j - 1))
       FROM bench_contacts c CROSS JOIN LATERAL generate_series(1, c.quotes) AS j`,
    `INSERT INTO partner_applications (contact_id, name, phone, role, municipality, investment, timeline,
                                         legal_documentation, consultancy_payment, score, status, utm_source,
                                         utm_campaign, landing_path, created_at)
       SELECT c.id, c.name, c.phone, CASE WHEN j = 1 THEN 'desarrollador' ELSE 'inversionista' END, c.municipality,
              '5m+', '0-3-meses', CASE WHEN j = 1 THEN 'si' ELSE 'no' END, 'si', CASE WHEN j = 1 THEN 13 ELSE 5 END,
              CASE WHEN j = 1 THEN 'approved' ELSE 'rejected' END, c.utm_source, c.utm_campaign, '/socios',
              least(now(), c.first_at + c.step * (c.quick + c.quotes + j - 1))
       FROM bench_contacts c CROSS JOIN LATERAL generate_series(1, c.partners) AS j`,
    // The history of the contacts that left `nuevo`, and a note on a third of them.
    `INSERT INTO contact_events (contact_id, actor_name, kind, from_value, to_value, created_at)
       SELECT id, 'admin@ceiba.mx', 'state', 'nuevo',
              CASE WHEN state = 'cerrado_perdido' THEN state || ':' || reason ELSE state END, least(now(), first_at + moved_after)
       FROM bench_contacts WHERE state <> 'nuevo'`,
    `INSERT INTO contact_notes (contact_id, author_name, body, created_at)
       SELECT id, 'admin@ceiba.mx', 'Llamar por la tarde; pregunta por el crédito.', last_at
       FROM bench_contacts WHERE n % 3 = 0`,
    'DROP TABLE bench_contacts',
    // VACUUM too, as autovacuum would have done on tables filled over a year: the visibility map
    // lets counts use index-only scans, and no autovacuum of the fresh rows runs amid the figures.
    'VACUUM ANALYZE',
  ];
}

/** Seeds `rows` contacts and their leads, then VACUUM ANALYZE; the rows of each lead table. */
export async function seedContacts(client: pg.Client, rows: number): Promise<Record<LeadKind, number>> {
  if (!Number.isInteger(rows) || rows < 1) throw new Error(`rows must be a positive integer, not ${rows}`);
  for (const statement of seedStatements(rows)) await client.query(statement);
  const counted = await client.query<{ kind: LeadKind; n: number }>(
    LEAD_KINDS.map((kind) => `SELECT '${kind}' AS kind, count(*)::int AS n FROM ${LEAD_TABLES[kind]}`).join(
      ' UNION ALL ',
    ),
  );
  return Object.fromEntries(counted.rows.map((row) => [row.kind, row.n])) as Record<LeadKind, number>;
}

/**
 * `count` advisers (asesorN@ceiba.mx, password `password`, hashed by the
 * caller) and the contacts shared among them as the round-robin would: the
 * n-th contact to adviser n % (count + 1), none for the remainder 0 (about
 * one in count + 1 stays unassigned). Then VACUUM ANALYZE. Their e-mails.
 */
export async function seedAdvisers(client: pg.Client, count: number, passwordHash: string): Promise<string[]> {
  const { rows } = await client.query<{ id: string; email: string }>(
    `INSERT INTO users (email, password_hash, name)
     SELECT 'asesor' || i || '@ceiba.mx', $1, 'Asesor ' || i FROM generate_series(1, $2::int) AS i
     RETURNING id, email`,
    [passwordHash, count],
  );
  await client.query(
    `INSERT INTO user_roles (user_id, role) SELECT id, 'asesor' FROM users WHERE id = ANY($1::uuid[])`,
    [rows.map((row) => row.id)],
  );
  await client.query(
    `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM contacts)
     UPDATE contacts c SET assigned_to = ($1::uuid[])[numbered.n % ($2::int + 1)]
     FROM numbered WHERE numbered.id = c.id AND numbered.n % ($2::int + 1) <> 0`,
    [rows.map((row) => row.id), count],
  );
  await client.query('VACUUM ANALYZE contacts');
  return rows.map((row) => row.email);
}

/**
 * The pipeline's deals (decision 0041): a model of interest on about half the
 * contacts past `nuevo` and a fifth of the new ones (ids of the catalogue,
 * `modelIds`), a value overridden on one in ten of those, an expected close
 * day on the open ones with a model. Then VACUUM ANALYZE.
 */
export async function seedDeals(client: pg.Client, modelIds: string[]): Promise<void> {
  await client.query('SELECT setseed(0.7)');
  await client.query(
    `UPDATE contacts SET model_id = ($1::text[])[1 + floor(random() * array_length($1::text[], 1))::int]
     WHERE random() < CASE WHEN state = 'nuevo' THEN 0.2 ELSE 0.5 END`,
    [modelIds],
  );
  await client.query(
    `UPDATE contacts SET estimated_value_mxn = 200000 + floor(random() * 80) * 10000
     WHERE model_id IS NOT NULL AND random() < 0.1`,
  );
  await client.query(
    `UPDATE contacts SET expected_close_on = current_date + floor(random() * 120)::int
     WHERE model_id IS NOT NULL AND state NOT IN ('cerrado_ganado', 'cerrado_perdido')`,
  );
  await client.query('VACUUM ANALYZE contacts');
}
