import { CATALOGUE_MODELS } from '../../lib/admin/catalogue.ts';
import type { ConversionsConfig } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { CONTACT_MARKETING_CONSENT } from '../leads/consent.ts';
import { LEAD_TABLES } from '../leads/kinds.ts';
import { googleEmail, googlePhone, metaEmail, metaExternalId, metaPhone } from './hash.ts';

/**
 * The conversions told back to the ad platforms (issue #43, decision 0072).
 *
 * Found, not hooked: the queue's upkeep (jobs.ts) inserts what happened in
 * the last 7 days (Meta refuses older events) into `ad_conversions`, once per
 * destination and event id: each person's first lead (`lead:{contact}`),
 * each appointment booked (`schedule:{appointment}`), each consultation paid
 * (`purchase:{payment}`), each house sold (`won:{contact}`), whichever path
 * wrote them (a form, the panel, WhatsApp, the voice agent). Then its job
 * sends them, per destination, in batches; each is kept with what was sent
 * (hashed) or why nothing was: no consent (the person never ticked «Quiero
 * recibir novedades y promociones», nor answered yes to the same question on
 * WhatsApp, or asked for no more messages since, as the privacy notice says),
 * no click id of the platform (the notice tells each platform only of
 * requests that came through its ads).
 */

export type Destination = 'meta' | 'google';
export type ConversionEvent = 'lead' | 'schedule' | 'purchase' | 'won';

export const CONVERSIONS_TASK = 'ad_conversions_send';
/** Attempts before a conversion is given up (`fallido`, named in the report). */
export const CONVERSION_ATTEMPTS = 6;
/** Minutes before each new attempt. */
const BACKOFF_MINUTES = [1, 5, 30, 120, 360];
const BATCH = 100;

/**
 * Where Meta is told a person's events happened (its `action_source`): in
 * business messaging for a Click-to-WhatsApp ad's lead; on the website for
 * a person whose form came with the browser's User-Agent, which Meta
 * requires of every website event; `other` for the rest (a contact written
 * by an adviser, the voice agent, a booking without a visit's touch), rather
 * than a website event Meta would refuse.
 */
type MetaSource = 'website' | 'business_messaging' | 'other';

/** Meta's event names: standard ones, and business messaging's own list for a Click-to-WhatsApp ad's lead. */
const WEB_EVENTS: Record<ConversionEvent, string> = {
  lead: 'Lead',
  schedule: 'Schedule',
  purchase: 'Purchase',
  won: 'CasaVendida',
};
const META_EVENTS: Record<MetaSource, Record<ConversionEvent, string>> = {
  website: WEB_EVENTS,
  other: WEB_EVENTS,
  business_messaging: { lead: 'LeadSubmitted', schedule: 'QualifiedLead', purchase: 'Purchase', won: 'Purchase' },
};

/** The (destination, event) pairs configured: Meta takes every event, Google those with a conversion action. */
export function configuredPairs(config: ConversionsConfig): [Destination, ConversionEvent][] {
  const events: ConversionEvent[] = ['lead', 'schedule', 'purchase', 'won'];
  return [
    ...(config.meta ? events.map((event): [Destination, ConversionEvent] => ['meta', event]) : []),
    ...(config.google
      ? events
          .filter((event) => config.google?.actions[event])
          .map((event): [Destination, ConversionEvent] => ['google', event])
      : []),
  ];
}

const PRICES = JSON.stringify(Object.fromEntries(CATALOGUE_MODELS.map((model) => [model.id, model.price])));

/** What happened in the last 7 days, once per destination and event id; how many new ones. */
export async function recordDue(db: Queryable, config: ConversionsConfig): Promise<number> {
  const pairs = configuredPairs(config);
  if (pairs.length === 0) return 0;
  const { rowCount } = await db.query(
    `WITH wanted AS (SELECT * FROM unnest($1::text[], $2::text[]) AS w (destination, event)),
     found AS (
       SELECT 'lead' AS event, 'lead:' || c.id AS event_id, c.id AS contact_id, c.created_at AS at, NULL::int AS value
       FROM contacts c WHERE c.created_at > now() - interval '7 days'
       UNION ALL
       -- An appointment once it holds for sure: a paid kind's after its payment (a hold that expires unpaid, then
       -- booked again, is not two), never one cancelled before.
       SELECT 'schedule', 'schedule:' || a.id, a.contact_id, a.created_at, a.price_mxn
       FROM appointments a WHERE a.created_at > now() - interval '7 days' AND a.status NOT IN ('por_pagar', 'cancelada')
       UNION ALL
       SELECT 'purchase', 'purchase:' || p.id, p.contact_id, p.paid_at, p.amount_mxn
       FROM payments p WHERE p.status = 'pagado' AND p.refund_requested_at IS NULL AND p.paid_at > now() - interval '7 days'
       UNION ALL
       SELECT 'won', 'won:' || c.id, c.id, max(e.created_at),
              coalesce(c.estimated_value_mxn, ($3::jsonb ->> c.model_id)::int)
       FROM contact_events e JOIN contacts c ON c.id = e.contact_id
       WHERE e.kind = 'state' AND e.to_value = 'cerrado_ganado' AND e.created_at > now() - interval '7 days'
         AND c.state = 'cerrado_ganado'
       GROUP BY c.id
       -- A sale is told with its value (Meta requires one of a Purchase): won without one, it waits for the
       -- adviser to write it (or the model), within the week.
       HAVING coalesce(c.estimated_value_mxn, ($3::jsonb ->> c.model_id)::int) IS NOT NULL)
     INSERT INTO ad_conversions (destination, event, event_id, contact_id, occurred_at, value_mxn)
     SELECT w.destination, f.event, f.event_id, f.contact_id, f.at, f.value
     FROM found f JOIN wanted w ON w.event = f.event
     -- A house is sold once: a contact that a merge gave another contact's sale (its rows moved with it) is not
     -- told again under its own id.
     WHERE f.event <> 'won' OR NOT EXISTS (
       SELECT 1 FROM ad_conversions x WHERE x.destination = w.destination AND x.contact_id = f.contact_id AND x.event = 'won')
     ON CONFLICT (destination, event_id) DO NOTHING`,
    [pairs.map(([destination]) => destination), pairs.map(([, event]) => event), PRICES],
  );
  return rowCount ?? 0;
}

/**
 * Consent given later on a form (a quick quote without the box ticked, then
 * the full quote with it): what was kept unsent for lack of it goes, within
 * the 7 days the platforms take, as a WhatsApp "Sí" does (recordConsent).
 * The contacts of the last 10 minutes' consented leads, at every upkeep
 * (every half minute): the lead's own path stays as it is.
 */
export async function requeueConsented(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE ad_conversions a SET status = 'pendiente', next_attempt_at = now(), last_error = NULL
     FROM contacts c
     WHERE c.id = a.contact_id AND a.status = 'sin_consentimiento' AND a.occurred_at > now() - interval '7 days'
       AND c.id IN (${LEAD_TABLES.map(
         (table) =>
           `SELECT contact_id FROM ${table} WHERE marketing_consent AND created_at > now() - interval '10 minutes'`,
       ).join(' UNION ')})
       AND ${CONTACT_MARKETING_CONSENT}`,
  );
  return rowCount ?? 0;
}

interface DueRow {
  id: string;
  event: ConversionEvent;
  event_id: string;
  contact_id: string;
  occurred_at: Date;
  value_mxn: number | null;
  attempts: number;
  phone: string;
  email: string | null;
  consent: boolean;
  first_touch: Record<string, string>;
  last_touch: Record<string, string>;
}

/** The destination's conversions due now, locked for this send (another drain skips them). */
async function claimDue(db: Queryable, destination: Destination): Promise<DueRow[]> {
  const { rows } = await db.query<DueRow>(
    `WITH due AS (
       SELECT id FROM ad_conversions
       WHERE destination = $1 AND status = 'pendiente' AND next_attempt_at <= now()
       ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE ad_conversions a SET next_attempt_at = now() + interval '5 minutes'
       FROM due WHERE a.id = due.id
       RETURNING a.id, a.event, a.event_id, a.contact_id, a.occurred_at, a.value_mxn, a.attempts)
     SELECT k.*, c.phone, c.email, c.first_touch, c.last_touch, ${CONTACT_MARKETING_CONSENT} AS consent
     FROM claimed k JOIN contacts c ON c.id = k.contact_id`,
    [destination, BATCH],
  );
  return rows;
}

/** The touch that carries a key: the last if it has it, else the first. */
const touched = (row: DueRow, key: string): string | undefined => row.last_touch[key] ?? row.first_touch[key];

export interface SiteFacts {
  siteUrl: string;
}

/** Meta's server event for one conversion (hashed user data, the click's fbc or a WhatsApp ad's ctwa_clid). */
export function metaEvent(row: DueRow, site: SiteFacts) {
  const ctwaClid = touched(row, 'ctwa_clid');
  const userAgent = touched(row, 'client_user_agent');
  const channel: MetaSource = ctwaClid ? 'business_messaging' : userAgent ? 'website' : 'other';
  const fbc = touched(row, 'fbc');
  // The page alone: its query is for us (a Google click's gclid is not Meta's to know).
  const landing = row.first_touch.landing_path?.split(/[?#]/)[0];
  return {
    event_name: META_EVENTS[channel][row.event],
    event_time: Math.floor(new Date(row.occurred_at).getTime() / 1000),
    event_id: row.event_id,
    action_source: channel,
    ...(channel === 'business_messaging' ? { messaging_channel: 'whatsapp' } : {}),
    ...(channel === 'website'
      ? { event_source_url: `${site.siteUrl}${landing?.startsWith('/') ? landing : '/'}` }
      : {}),
    user_data: {
      ph: [metaPhone(row.phone)],
      ...(row.email ? { em: [metaEmail(row.email)] } : {}),
      external_id: [metaExternalId(row.contact_id)],
      // Not hashed, as Meta documents for these: the browser's User-Agent and the click id.
      ...(channel === 'website' ? { client_user_agent: userAgent } : {}),
      ...(fbc ? { fbc } : {}),
      ...(ctwaClid ? { ctwa_clid: ctwaClid } : {}),
    },
    ...(row.value_mxn !== null ? { custom_data: { value: row.value_mxn, currency: 'MXN' } } : {}),
  };
}

/** Google's Data Manager event for one conversion with a Google click id; null without one. */
export function googleEvent(row: DueRow) {
  const gclid = touched(row, 'gclid');
  const gbraid = touched(row, 'gbraid');
  const wbraid = touched(row, 'wbraid');
  const click = gclid ? { gclid } : wbraid ? { wbraid } : gbraid ? { gbraid } : null;
  if (!click) return null;
  return {
    transactionId: row.event_id,
    eventTimestamp: new Date(row.occurred_at).toISOString(),
    eventSource: 'WEB',
    adIdentifiers: click,
    userData: {
      userIdentifiers: [
        { phoneNumber: googlePhone(row.phone) },
        ...(row.email ? [{ emailAddress: googleEmail(row.email) }] : []),
      ],
    },
    ...(row.value_mxn !== null ? { conversionValue: row.value_mxn, currency: 'MXN' } : {}),
    consent: { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_DENIED' },
  };
}

async function settle(
  db: Queryable,
  ids: string[],
  status: 'enviado' | 'sin_consentimiento' | 'sin_identificador',
  payloads?: Map<string, unknown>,
) {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE ad_conversions a SET status = $2, sent_at = CASE WHEN $2 = 'enviado' THEN now() END,
       attempts = a.attempts + CASE WHEN $2 = 'enviado' THEN 1 ELSE 0 END, last_error = NULL,
       payload = coalesce(($3::jsonb) -> a.id::text, a.payload)
     WHERE a.id = ANY($1::uuid[])`,
    [ids, status, JSON.stringify(Object.fromEntries(payloads ?? []))],
  );
}

/** A failed send: tried again later, or given up after CONVERSION_ATTEMPTS (`fallido`). */
async function failed(db: Queryable, ids: string[], error: string) {
  await db.query(
    `UPDATE ad_conversions SET attempts = attempts + 1, last_error = left($2, 500),
       status = CASE WHEN attempts + 1 >= $3 THEN 'fallido' ELSE status END,
       next_attempt_at = now() + make_interval(mins => ($4::int[])[least(attempts + 1, cardinality($4::int[]))])
     WHERE id = ANY($1::uuid[])`,
    [ids, error, CONVERSION_ATTEMPTS, BACKOFF_MINUTES],
  );
}

/** An answer that is not 2xx: its status and the platform's message (never the body we sent). */
async function refusal(response: Response): Promise<string> {
  let message = '';
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    message = typeof body.error?.message === 'string' ? body.error.message : '';
  } catch {
    // Not JSON: the status says enough.
  }
  return `${response.status}${message ? `: ${message}` : ''}`;
}

let googleToken: { value: string; until: number } | null = null;

/** An access token from the refresh token (OAuth 2.0), kept until a minute before it expires. */
async function googleAccessToken(google: NonNullable<ConversionsConfig['google']>): Promise<string> {
  if (googleToken && googleToken.until > Date.now()) return googleToken.value;
  const response = await fetch(google.tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: google.clientId,
      client_secret: google.clientSecret,
      refresh_token: google.refreshToken,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) throw new Error(`Google OAuth ${await refusal(response)}`);
  const token = (await response.json()) as { access_token: string; expires_in?: number };
  googleToken = { value: token.access_token, until: Date.now() + ((token.expires_in ?? 3600) - 60) * 1000 };
  return token.access_token;
}

/**
 * Sends `events` (by conversion id) in one request and settles them: sent,
 * or failed to be tried again. Both platforms refuse a whole request for one
 * invalid event (Meta's 400 names the event's index; Data Manager's
 * INVALID_ARGUMENT, its field): a 400 for several events sends each half
 * again, down to the one refused, so one bad conversion never keeps the
 * others from their platform (at most about 2·log2(100) more requests for
 * one bad event in a batch). A refused token, a limit or an outage is the
 * whole request's: it fails as a whole.
 */
async function deliver(
  db: Queryable,
  events: Map<string, unknown>,
  platform: string,
  send: (batch: unknown[]) => Promise<Response>,
): Promise<void> {
  const ids = [...events.keys()];
  let answer: Response;
  try {
    answer = await send([...events.values()]);
  } catch (error) {
    await failed(db, ids, (error as Error).message);
    return;
  }
  if (answer.ok) {
    await answer.body?.cancel();
    await settle(db, ids, 'enviado', events);
    return;
  }
  if (answer.status === 400 && ids.length > 1) {
    await answer.body?.cancel();
    const half = Math.ceil(ids.length / 2);
    const entries = [...events];
    await deliver(db, new Map(entries.slice(0, half)), platform, send);
    await deliver(db, new Map(entries.slice(half)), platform, send);
    return;
  }
  await failed(db, ids, `${platform} ${await refusal(answer)}`);
}

/** Sends what is due for `destination`; how many were settled (sent, or kept unsent with the reason). */
export async function sendDue(
  db: Queryable,
  config: ConversionsConfig,
  destination: Destination,
  site: SiteFacts,
): Promise<number> {
  const rows = await claimDue(db, destination);
  if (rows.length === 0) return 0;
  const withoutConsent = rows.filter((row) => !row.consent);
  await settle(
    db,
    withoutConsent.map((row) => row.id),
    'sin_consentimiento',
  );
  const allowed = rows.filter((row) => row.consent);
  if (destination === 'meta' && config.meta) {
    const meta = config.meta;
    // Meta is told only of people who came through its ads (a click's fbc, a Click-to-WhatsApp ad's ctwa_clid),
    // as the privacy notice promises: anyone else is kept unsent, as Google's without a Google click id.
    const fromMeta = (row: DueRow) => touched(row, 'fbc') !== undefined || touched(row, 'ctwa_clid') !== undefined;
    await settle(
      db,
      allowed.filter((row) => !fromMeta(row)).map((row) => row.id),
      'sin_identificador',
    );
    const events = new Map(allowed.filter(fromMeta).map((row) => [row.id, metaEvent(row, site)]));
    if (events.size > 0) {
      await deliver(db, events, 'Meta', (batch) =>
        fetch(`${meta.apiBase}/v26.0/${meta.datasetId}/events`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${meta.accessToken}` },
          body: JSON.stringify({ data: batch }),
          signal: AbortSignal.timeout(15_000),
        }),
      );
    }
  }
  if (destination === 'google' && config.google) {
    const google = config.google;
    // Each row's event built once: null without a Google click id.
    const built = allowed.map((row) => ({ row, event: googleEvent(row) }));
    await settle(
      db,
      built.filter(({ event }) => event === null).map(({ row }) => row.id),
      'sin_identificador',
    );
    // One request per conversion action (an event kind): Data Manager takes one destination a request.
    for (const kind of ['lead', 'schedule', 'purchase', 'won'] as const) {
      const action = google.actions[kind];
      const events = new Map(
        built.filter(({ row, event }) => row.event === kind && event !== null).map(({ row, event }) => [row.id, event]),
      );
      if (events.size === 0 || !action) continue;
      await deliver(db, events, 'Google', async (batch) =>
        fetch(`${google.apiBase}/v1/events:ingest`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await googleAccessToken(google)}` },
          body: JSON.stringify({
            destinations: [
              {
                operatingAccount: { accountType: 'GOOGLE_ADS', accountId: google.customerId },
                productDestinationId: action,
              },
            ],
            encoding: 'HEX',
            events: batch,
          }),
          signal: AbortSignal.timeout(15_000),
        }),
      );
    }
  }
  return rows.length;
}
