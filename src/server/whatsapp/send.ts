import { randomUUID } from 'node:crypto';
import { greetingName } from '../../lib/person-name.ts';
import {
  CUSTOMER_SERVICE_WINDOW_HOURS,
  MEMBER_TEMPLATES_PER_DAY,
  type SendMessageInput,
  type SendRefusal,
  type TemplateOption,
  type WhatsappMessage,
  type WhatsappState,
} from '../../lib/whatsapp/contract.ts';
import { errorReason, UNREACHABLE_REASON } from '../../lib/whatsapp/errors.ts';
import {
  findTemplate,
  renderTemplate,
  type TemplateValues,
  templateFor,
  templateParameters,
  WHATSAPP_TEMPLATES,
  type WhatsappTemplate,
} from '../../lib/whatsapp/templates.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { ServerConfig, WhatsappConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { logJson } from '../log.ts';
import { allowanceLimit, allowancePurpose, holdAutomatic, takeAllowance } from './allowance.ts';
import { postMessage } from './cloud-api.ts';
import { acceptedAs } from './inbound.ts';
import { readMessage } from './messages.ts';
import { storedOurs } from './outbound.ts';
import { SEND_MAX_ATTEMPTS, scheduleSends } from './queue.ts';
import { freeSlotList, slotOptions } from './slot-list.ts';

/** The Spanish reasons the composer shows (and a 409 carries). */
export const REFUSALS: Record<SendRefusal, string> = {
  window_closed: `Pasaron más de ${CUSTOMER_SERVICE_WINDOW_HOURS} horas desde el último mensaje del prospecto: WhatsApp solo permite enviarle una plantilla aprobada hasta que vuelva a escribir.`,
  never_wrote:
    'El prospecto aún no nos ha escrito por WhatsApp: WhatsApp solo permite enviarle una plantilla aprobada hasta que escriba.',
  opted_out:
    'El prospecto pidió no recibir mensajes automáticos (escribió BAJA, ALTO, STOP o algo parecido): no se le pueden enviar plantillas.',
  no_phone: 'Este prospecto no tiene un número al que WhatsApp pueda escribir.',
  key_reused: 'Este envío ya se usó para otro mensaje. Recarga la página e inténtalo de nuevo.',
  not_configured: 'El envío por WhatsApp no está configurado.',
  template_limit: `Ya se enviaron ${MEMBER_TEMPLATES_PER_DAY} plantillas a este prospecto en las últimas 24 horas. Espera su respuesta o escríbele mañana.`,
  no_slots:
    'No hay horarios libres de ese tipo de cita en ese lugar dentro de su plazo: revisa la disponibilidad de los asesores o elige otro.',
};

interface ContactWindow {
  id: string;
  name: string;
  phone: string;
  last_inbound_at: Date | null;
  opted_out_at: Date | null;
  window_open: boolean;
}

async function contactWindow(db: Queryable, contactId: string): Promise<ContactWindow | null> {
  const { rows } = await db.query<ContactWindow>(
    `SELECT c.id, c.name, c.phone, w.last_inbound_at, w.opted_out_at,
            coalesce(w.last_inbound_at > now() - make_interval(hours => $2), false) AS window_open
     FROM contacts c LEFT JOIN whatsapp_conversations w ON w.contact_id = c.id
     WHERE c.id = $1`,
    [contactId, CUSTOMER_SERVICE_WINDOW_HOURS],
  );
  return rows[0] ?? null;
}

function templateOption(template: WhatsappTemplate, contact: { name: string }): TemplateOption {
  const sent = templateFor(template, contact);
  return {
    name: template.name as TemplateOption['name'],
    label: template.label,
    language: template.language,
    body: template.body,
    preview: renderTemplate(sent.template, sent.values),
  };
}

/** What the composer may send to a contact now, and why not (GET /api/admin/contacts/:id/whatsapp). */
export async function whatsappState(
  db: Queryable,
  contactId: string,
  config: WhatsappConfig | null,
): Promise<WhatsappState | null> {
  const contact = await contactWindow(db, contactId);
  if (!contact) return null;
  const configured = config !== null;
  const optedOut = contact.opted_out_at !== null;
  const allowed = { text: configured && contact.window_open, templates: configured && !optedOut };
  // Free text waits for their message: the window lapsed, or they never wrote (issue #38: say which).
  const closed = REFUSALS[contact.last_inbound_at ? 'window_closed' : 'never_wrote'];
  const reason = !configured
    ? REFUSALS.not_configured
    : !allowed.text && !allowed.templates
      ? `${closed} ${REFUSALS.opted_out}`
      : !allowed.text
        ? closed
        : !allowed.templates
          ? REFUSALS.opted_out
          : null;
  const lastInbound = contact.last_inbound_at ? new Date(contact.last_inbound_at) : null;
  return {
    configured,
    window: {
      open: contact.window_open,
      lastInboundAt: lastInbound?.toISOString() ?? null,
      closesAt: lastInbound
        ? new Date(lastInbound.getTime() + CUSTOMER_SERVICE_WINDOW_HOURS * 3_600_000).toISOString()
        : null,
    },
    optedOutAt: contact.opted_out_at ? new Date(contact.opted_out_at).toISOString() : null,
    allowed,
    reason,
    templates: allowed.templates ? WHATSAPP_TEMPLATES.map((template) => templateOption(template, contact)) : [],
    slotOptions: allowed.text ? await slotOptions(db) : [],
  };
}

export type SendAnswer =
  | { kind: 'stored'; created: boolean; message: WhatsappMessage }
  | { kind: 'refused'; reason: SendRefusal }
  | { kind: 'not_found' };

/**
 * A member's press of "Enviar": the message stored as `sending` with its
 * job, in one transaction (the job is sent by the queue). The same
 * idempotency key again answers the message it stored (a double press is one
 * message). Free text only inside the 24-hour window; templates never to an
 * opted-out contact; a template is written in the contact's history and the
 * activity log. The member's message ends the contact's wait for a reply.
 */
export async function enqueueMessage(
  db: Database,
  contactId: string,
  input: SendMessageInput,
  actor: Actor,
): Promise<SendAnswer> {
  const answer = await db.transaction(
    async (tx): Promise<SendAnswer | { kind: 'done'; id: string; created: boolean }> => {
      const existing = await tx.query<{ id: string; contact_id: string }>(
        'SELECT id, contact_id FROM whatsapp_messages WHERE idempotency_key = $1',
        [input.idempotencyKey],
      );
      if (existing.rows[0]) {
        return existing.rows[0].contact_id === contactId
          ? { kind: 'done', id: existing.rows[0].id, created: false }
          : { kind: 'refused', reason: 'key_reused' };
      }
      const contact = await contactWindow(tx, contactId);
      if (!contact) return { kind: 'not_found' };
      let body: string;
      let template: WhatsappTemplate | undefined;
      let raw: object = {};
      let kind: 'text' | 'template' | 'interactive' = input.kind === 'slots' ? 'interactive' : input.kind;
      let slots: string | null = null;
      if (input.kind === 'text' || input.kind === 'slots') {
        if (!contact.window_open) {
          return { kind: 'refused', reason: contact.last_inbound_at ? 'window_closed' : 'never_wrote' };
        }
      }
      if (input.kind === 'text') {
        body = input.text;
        if (input.quickReplyId) raw = { quickReplyId: input.quickReplyId };
      } else if (input.kind === 'slots') {
        // Free-form inside the window, as text is: the buyer's choice books it (booking.ts, decision 0063).
        const greeting = greetingName(contact.name);
        const offer = await freeSlotList(
          tx,
          contactId,
          input.appointment,
          input.place,
          Date.now(),
          greeting ? `Hola ${greeting}. ` : '',
        );
        if (!offer) return { kind: 'refused', reason: 'no_slots' };
        body = offer.list.body;
        raw = { interactive: offer.list.interactive };
        kind = 'interactive';
        slots = `${offer.kind.name} · ${offer.place.name}`;
      } else {
        if (contact.opted_out_at) return { kind: 'refused', reason: 'opted_out' };
        // Each template is billed (one the platform refused is not): a member, or a script with their session,
        // sends one person a few a day at most. Templates to one contact queue here, so each count sees the
        // ones before it (eight at once were eight counts of none).
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`whatsapp-templates:${contactId}`]);
        const { rows: today } = await tx.query<{ sent: number }>(
          `SELECT count(*)::int AS sent FROM whatsapp_messages
           WHERE contact_id = $1 AND kind = 'template' AND sent_by IS NOT NULL AND status <> 'failed'
             AND created_at > now() - interval '24 hours'`,
          [contactId],
        );
        if ((today[0]?.sent ?? 0) >= MEMBER_TEMPLATES_PER_DAY) return { kind: 'refused', reason: 'template_limit' };
        const chosen = findTemplate(input.template);
        if (!chosen) return { kind: 'refused', reason: 'not_configured' };
        // The contact's first name, or the template's twin without it when the name is no name.
        const sent = templateFor(chosen, contact);
        template = sent.template;
        body = renderTemplate(template, sent.values);
        raw = { parameters: templateParameters(template, sent.values) };
      }
      const id = randomUUID();
      const inserted = await tx.query<{ id: string }>(
        `INSERT INTO whatsapp_messages (id, contact_id, direction, kind, body, status, template_name, idempotency_key,
                                      sent_by, sent_by_name, raw)
       VALUES ($1, $2, 'out', $3, $4, 'sending', $5, $6, $7, $8, $9::jsonb)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
        [
          id,
          contactId,
          kind,
          body,
          template?.name ?? null,
          input.idempotencyKey,
          actor.id,
          actor.name,
          JSON.stringify(raw),
        ],
      );
      if (!inserted.rows[0]) {
        // The same key pressed twice at once: the other press stored it (this INSERT waited for it).
        const other = await tx.query<{ id: string; contact_id: string }>(
          'SELECT id, contact_id FROM whatsapp_messages WHERE idempotency_key = $1',
          [input.idempotencyKey],
        );
        const row = other.rows[0];
        if (!row || row.contact_id !== contactId) return { kind: 'refused', reason: 'key_reused' };
        return { kind: 'done', id: row.id, created: false };
      }
      await storedOurs(tx, contactId, id, body, kind, true);
      if (template) await recordTemplate(tx, contactId, contact.name, template, actor);
      if (slots) {
        await recordActivity(tx, {
          actor,
          kind: 'whatsapp_slots',
          summary: `Envió por WhatsApp los horarios libres de ${slots} a ${contact.name}`,
          details: { contact: contactId, message: id },
        });
      }
      await scheduleSends(tx, [id]);
      return { kind: 'done', id, created: true };
    },
  );
  if (answer.kind !== 'done') return answer;
  const message = await readMessage(db, answer.id);
  if (!message) return { kind: 'not_found' };
  return { kind: 'stored', created: answer.created, message };
}

async function recordTemplate(
  tx: Queryable,
  contactId: string,
  name: string,
  template: WhatsappTemplate,
  actor: Actor | null,
): Promise<void> {
  await tx.query(
    `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, to_value, detail)
     VALUES ($1, $2, $3, 'whatsapp_template', $4, $5)`,
    [contactId, actor?.id ?? null, actor?.name ?? null, template.label, template.name],
  );
  await recordActivity(tx, {
    actor,
    kind: 'whatsapp_template',
    summary: `Envió la plantilla «${template.label}» por WhatsApp a ${name}`,
    details: { contact: contactId, template: template.name },
  });
}

interface ClaimedMessage {
  id: string;
  contact_id: string;
  kind: 'text' | 'template' | 'interactive';
  body: string;
  template_name: string | null;
  raw: { parameters?: string[]; interactive?: object };
  attempts: number;
  automated: boolean;
  allowance_day: Date | null;
  idempotency_key: string | null;
  cut_short: boolean;
  phone: string;
  wa_id: string | null;
  opted_out: boolean;
}

/** The Cloud API request of a message of ours (Meta's "messages" endpoint), with our id to echo in its statuses. */
function requestOf(message: ClaimedMessage): object {
  const to = message.wa_id ?? message.phone.replace(/^\+/, '');
  const common = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    biz_opaque_callback_data: message.id,
  };
  if (message.kind === 'text') return { ...common, type: 'text', text: { body: message.body, preview_url: false } };
  // An interactive list (the free slots, decision 0063): as it was built and stored.
  if (message.kind === 'interactive') return { ...common, type: 'interactive', interactive: message.raw.interactive };
  const template = findTemplate(message.template_name ?? '');
  const parameters = message.raw.parameters ?? [];
  return {
    ...common,
    type: 'template',
    template: {
      name: message.template_name,
      language: { code: template?.language ?? 'es_MX' },
      // A template without variables (a twin without the name) is sent without components.
      ...(parameters.length > 0 && {
        components: [
          {
            type: 'body',
            // Meta refuses a parameter with new lines, tabs or more than 4 spaces in a row.
            parameters: parameters.map((text) => ({ type: 'text', text: text.replace(/\s+/g, ' ').trim() || '—' })),
          },
        ],
      }),
    },
  };
}

async function fail(db: Queryable, id: string, code: number | null, reason: string): Promise<void> {
  await db.query(
    `UPDATE whatsapp_messages SET status = 'failed', status_at = now(), error_code = $2, error_reason = $3, claimed_at = NULL
     WHERE id = $1 AND status = 'sending'`,
    [id, code, reason.slice(0, 500)],
  );
}

/** A send to try again later (the queue's backoff): the error the job throws. */
export class SendLater extends Error {
  override name = 'SendLater';
}

/**
 * The queue's job for one message of ours. It claims the message first (a
 * committed `claimed_at`): a message no longer `sending`, or claimed by an
 * attempt still within the lock timeout, is left alone, so a job run twice
 * sends once. An attempt cut short (the worker died after the platform
 * accepted it) is recognised by a status that echoed our id, and not sent
 * again. Accepted: its platform id and any status that came first; refused
 * for good (a 4xx): `failed` with the Spanish reason; rate limits, outages
 * and the network: thrown, so the queue tries again, up to SEND_MAX_ATTEMPTS.
 */
export async function sendMessage(db: Database, messageId: string, config: ServerConfig): Promise<string> {
  const whatsapp = config.whatsapp;
  const { rows } = await db.query<ClaimedMessage>(
    `WITH previous AS (
       SELECT id, claimed_at FROM whatsapp_messages
       WHERE id = $1 AND status = 'sending' AND wa_message_id IS NULL
         AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2))
       FOR UPDATE
     )
     UPDATE whatsapp_messages m SET claimed_at = now(), attempts = m.attempts + 1
     FROM previous p, contacts c LEFT JOIN whatsapp_conversations w ON w.contact_id = c.id
     WHERE m.id = p.id AND c.id = m.contact_id
     RETURNING m.id, m.contact_id, m.kind, m.body, m.template_name, m.raw, m.attempts, m.automated, m.allowance_day,
               m.idempotency_key, p.claimed_at IS NOT NULL AS cut_short, c.phone, w.wa_id, w.opted_out_at IS NOT NULL AS opted_out`,
    [messageId, config.notifications.lockTimeoutSeconds],
  );
  const message = rows[0];
  if (!message) return 'not-ours';
  if (!whatsapp) {
    await fail(db, message.id, null, REFUSALS.not_configured);
    return 'failed';
  }
  if (message.cut_short) {
    const echoed = await db.query<{ wa_message_id: string }>(
      'SELECT wa_message_id FROM whatsapp_pending_statuses WHERE callback = $1 LIMIT 1',
      [message.id],
    );
    const waId = echoed.rows[0]?.wa_message_id;
    if (waId) {
      await db.transaction((tx) => acceptedAs(tx, message.id, waId));
      return 'sent';
    }
  }
  if (message.kind === 'template' && message.opted_out) {
    await fail(db, message.id, null, REFUSALS.opted_out);
    return 'failed';
  }
  // An automatic template takes one of the day's allowance of its purpose, once; over it, an adviser writes
  // instead. Only a template costs money: an automatic answer inside the window (a booking's, decision 0063)
  // takes none.
  if (message.automated && message.kind === 'template' && message.allowance_day === null) {
    const purpose = allowancePurpose(message.idempotency_key);
    if (!(await takeAllowance(db, message.id, allowanceLimit(whatsapp, purpose), purpose))) {
      await holdAutomatic(db, message.id, config, purpose);
      return 'held';
    }
  }
  const request = requestOf(message);
  const result = await postMessage(whatsapp, request);
  if (result.kind === 'accepted') {
    // The platform has it: its id must be written, never the message sent again. A transient
    // database error here (a deadlock, a lost connection) is tried again at once, a few times;
    // the message stays claimed meanwhile, so no other attempt sends it.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.transaction(async (tx) => {
          await tx.query('UPDATE whatsapp_messages SET raw = $2::jsonb WHERE id = $1', [
            message.id,
            JSON.stringify(request),
          ]);
          // With a person's first message, the response time's end.
          await acceptedAs(tx, message.id, result.waMessageId);
        });
        return 'sent';
      } catch (error) {
        logJson('error', {
          event: 'whatsapp_accepted_not_recorded',
          message: message.id,
          attempt,
          error: (error as Error).message,
        });
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }
  const retry = result.kind === 'unreachable' || result.retry;
  if (!retry || message.attempts >= SEND_MAX_ATTEMPTS) {
    const code = result.kind === 'refused' ? result.code : null;
    // An outage that outlasted the retries without a code of the platform's is "could not reach".
    const reason = !retry || code !== null ? errorReason(code) : UNREACHABLE_REASON;
    await fail(db, message.id, code, reason);
    // The platform's own words (English) are for the log; the team reads errorReason's Spanish.
    logJson('warn', {
      event: result.kind === 'refused' ? 'whatsapp_send_refused' : 'whatsapp_send_unreachable',
      message: message.id,
      code,
      status: result.kind === 'refused' ? result.status : null,
      title: result.kind === 'refused' ? result.title : result.error.slice(0, 300),
    });
    return 'failed';
  }
  await db.query('UPDATE whatsapp_messages SET claimed_at = NULL WHERE id = $1', [message.id]);
  throw new SendLater(
    result.kind === 'unreachable' ? `network: ${result.error}` : `HTTP ${result.status} code ${result.code ?? '-'}`,
  );
}

/**
 * An automatic template of ours (not a member's): stored as `sending` with
 * its send job (sendMessage checks the opt-out again and takes the day's
 * allowance), the conversation's last message, and its line in the
 * contact's history, once per `key` (false: that key was queued before).
 * In the caller's transaction.
 */
export async function queueAutomaticTemplate(
  tx: Queryable,
  contactId: string,
  sent: { template: WhatsappTemplate; values: TemplateValues },
  key: string,
): Promise<boolean> {
  const { template, values } = sent;
  const body = renderTemplate(template, values);
  const id = randomUUID();
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO whatsapp_messages (id, contact_id, direction, kind, body, status, template_name, idempotency_key,
                                    automated, raw)
     VALUES ($1, $2, 'out', 'template', $3, 'sending', $4, $5, true, $6::jsonb)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    [id, contactId, body, template.name, key, JSON.stringify({ parameters: templateParameters(template, values) })],
  );
  if (!inserted.rows[0]) return false;
  await storedOurs(tx, contactId, id, body, 'template', false);
  await tx.query(
    `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'whatsapp_template', $2, $3)`,
    [contactId, template.label, template.name],
  );
  await scheduleSends(tx, [id]);
  return true;
}

export { recordTemplate };
