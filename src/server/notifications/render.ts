import { site } from '../../data/site.ts';
import { attributionRows as labelledAttribution } from '../../lib/admin/attribution.ts';
import { formatPhone } from '../../lib/forms/phone.ts';
import { nameOrPhone } from '../../lib/person-name.ts';
import type { InboundMessageNotice } from '../whatsapp/notify.ts';
import type { LeadMessage } from './message.ts';

import type { DailySummary } from './summary.ts';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
  /** Stable per notification, so a mail client can tell a repeated delivery. */
  messageId: string;
  /** Its own addressee (a reminder to one member) instead of NOTIFY_EMAIL_TO. */
  to?: readonly string[];
  /** Addressees besides NOTIFY_EMAIL_TO (a won customer's adviser, for their new request). */
  also?: readonly string[];
  /** Files it carries (an appointment's calendar file, decision 0060). */
  attachments?: readonly { filename: string; content: string; contentType: string }[];
}

/** Text for HTML: whatever a visitor typed is shown, never interpreted. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] as string,
  );
}

const MERIDA_DATE_TIME = new Intl.DateTimeFormat('es-MX', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'America/Merida',
});

const messageId = (id: string, channel: string) =>
  `<${id}.${channel}@notificaciones.${new URL(site.siteUrl).hostname}>`;

function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">${body}<p style="color:#6b7280;font-size:12px">${escapeHtml(site.brand.name)} · aviso automático del sitio</p></body></html>`;
}

function htmlTable(rows: { label: string; value: string }[]): string {
  const cells = rows
    .map(
      (row) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top">${escapeHtml(row.label)}</th><td style="padding:4px 0">${escapeHtml(row.value)}</td></tr>`,
    )
    .join('');
  return `<table style="border-collapse:collapse">${cells}</table>`;
}

const button = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;margin:4px 8px 4px 0;padding:10px 14px;background:#14532d;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a>`;

function attributionRows(lead: LeadMessage): { label: string; value: string }[] {
  return labelledAttribution(lead.attribution);
}

/** A field as a person reads it: the phone as "999 123 4567" (E.164 stays in the links, the webhook and the CSV). */
const shownField = (field: { label: string; value: string }) =>
  field.label === 'Teléfono' ? { ...field, value: formatPhone(field.value) } : field;

/** The e-mail about a new lead: every field, its attribution, and one tap to answer. */
export function leadEmail(lead: LeadMessage): EmailContent {
  const received = MERIDA_DATE_TIME.format(new Date(lead.createdAt));
  const fields = lead.fields.map(shownField);
  const attribution = attributionRows(lead);
  const text = [
    `${lead.title} en el sitio (${received}, hora de Mérida).`,
    ...(lead.sale ? ['', SALE_NOTICE] : []),
    '',
    ...fields.map((field) => `${field.label}: ${field.value}`),
    '',
    'Origen de la visita:',
    ...(attribution.length
      ? attribution.map((row) => `${row.label}: ${row.value}`)
      : ['Directo (sin campaña ni referencia)']),
    '',
    `Escribir por WhatsApp: ${lead.links.whatsapp}`,
    `Llamar: ${lead.links.phone}`,
    `Ver en el panel: ${lead.links.panel}`,
    '',
    'Respóndele pronto: el sitio promete contacto en menos de 24 horas.',
  ].join('\n');
  const html = htmlPage(
    lead.subject,
    `<h1 style="font-size:20px">${escapeHtml(lead.subject)}</h1>
<p>Recibida el ${escapeHtml(received)} (hora de Mérida).</p>${lead.sale ? `<p><strong>${escapeHtml(SALE_NOTICE)}</strong></p>` : ''}
<p>${button(lead.links.whatsapp, 'Escribir por WhatsApp')}${button(lead.links.phone, `Llamar al ${formatPhone(lead.phone)}`)}${button(lead.links.panel, 'Ver en el panel')}</p>
<h2 style="font-size:16px">Datos de la solicitud</h2>${htmlTable(fields)}
<h2 style="font-size:16px">Origen de la visita</h2>${attribution.length ? htmlTable(attribution) : '<p>Directo (sin campaña ni referencia).</p>'}
<p>Respóndele pronto: el sitio promete contacto en menos de 24 horas.</p>`,
  );
  const adviser = lead.sale?.adviserEmail;
  return {
    subject: lead.subject,
    text,
    html,
    messageId: messageId(lead.leadId, 'lead'),
    ...(adviser && { also: [adviser] }),
  };
}

/** A request from someone who already bought: their contact stays won (decision 0052). */
const SALE_NOTICE =
  'Es de un cliente con venta cerrada: sigue en «Cerrado: ganado». Este correo también llega a su asesor.';

/**
 * A short e-mail whose point is one link (an invitation, a password reset):
 * the text as written, and in HTML escaped with the link made clickable.
 */
export function linkEmail(subject: string, text: string, link: string, messageId: string): EmailContent {
  const anchor = `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`;
  return {
    subject,
    text,
    html: `<p>${escapeHtml(text).replace(escapeHtml(link), anchor).replaceAll('\n', '<br>')}</p>`,
    messageId,
  };
}

export const TEST_TITLE = 'Prueba de notificaciones';

export function testEmail(deliveryId: string, requestedBy: string): EmailContent {
  const line = `Este es un mensaje de prueba enviado desde el panel por ${requestedBy}. Si lo recibes, los avisos de nuevos prospectos llegarán aquí.`;
  return {
    subject: `${TEST_TITLE} · ${site.brand.name}`,
    text: line,
    html: htmlPage(TEST_TITLE, `<h1 style="font-size:20px">${TEST_TITLE}</h1><p>${escapeHtml(line)}</p>`),
    messageId: messageId(deliveryId, 'test'),
  };
}

const MERIDA_DAY = new Intl.DateTimeFormat('es-MX', { dateStyle: 'full', timeZone: 'UTC' });
const MERIDA_TIME = new Intl.DateTimeFormat('es-MX', { timeStyle: 'short', timeZone: 'America/Merida' });

/** The 8:00 e-mail: yesterday's leads and the contacts waiting more than 24 hours. */
export function summaryEmail(deliveryId: string, summary: DailySummary): EmailContent {
  // Sent on `summary.day`, about the day before.
  const yesterday = MERIDA_DAY.format(new Date(Date.parse(`${summary.day}T12:00:00Z`) - 86_400_000));
  const subject = `Resumen de ayer, ${yesterday}: ${summary.leads.length} ${summary.leads.length === 1 ? 'solicitud' : 'solicitudes'}, ${summary.waiting.length} sin atender`;
  const leadLine = (lead: DailySummary['leads'][number]) =>
    `${MERIDA_TIME.format(new Date(lead.createdAt))} · ${lead.title} · ${lead.name}${lead.municipality ? ` (${lead.municipality})` : ''} · ${formatPhone(lead.phone)}`;
  const waitingLine = (contact: DailySummary['waiting'][number]) =>
    `${contact.name} · ${formatPhone(contact.phone)} · desde ${MERIDA_DATE_TIME.format(new Date(contact.since))}`;
  const text = [
    subject,
    '',
    'Solicitudes de ayer:',
    ...(summary.leads.length ? summary.leads.map(leadLine) : ['Ninguna.']),
    '',
    'Prospectos en "Nuevo" desde hace más de 24 horas:',
    ...(summary.waiting.length
      ? summary.waiting.map((contact) => `${waitingLine(contact)} · ${contact.panel}`)
      : ['Ninguno. ¡Bien!']),
    '',
    `Panel: ${summary.panel}`,
  ].join('\n');
  const list = (items: string[], empty: string) =>
    items.length ? `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>` : `<p>${escapeHtml(empty)}</p>`;
  const html = htmlPage(
    subject,
    `<h1 style="font-size:20px">${escapeHtml(subject)}</h1>
<h2 style="font-size:16px">Solicitudes de ayer</h2>${list(
      summary.leads.map((lead) => escapeHtml(leadLine(lead))),
      'Ninguna.',
    )}
<h2 style="font-size:16px">En “Nuevo” desde hace más de 24 horas</h2>${list(
      summary.waiting.map(
        (contact) => `<a href="${escapeHtml(contact.panel)}">${escapeHtml(waitingLine(contact))}</a>`,
      ),
      'Ninguno. ¡Bien!',
    )}
<p>${button(summary.panel, 'Abrir el panel')}</p>`,
  );
  return { subject, text, html, messageId: messageId(deliveryId, 'summary') };
}

/** What a reminder says: whom to contact, when it was due, and the link to their page. */
export interface ReminderMessage {
  contactName: string;
  phone: string;
  /** The next contact that came due (ISO). */
  at: string;
  /** The contact's page in the panel. */
  url: string;
  /** The member reminded. */
  to: string;
}

export const reminderTitle = (reminder: Pick<ReminderMessage, 'contactName' | 'phone'>): string =>
  `Toca contactar a ${nameOrPhone(reminder.contactName, reminder.phone)}`;

/** The e-mail to the member who follows the contact (or the administrators, when nobody does). */
export function reminderEmail(deliveryId: string, reminder: ReminderMessage): EmailContent {
  const title = reminderTitle(reminder);
  const when = MERIDA_DATE_TIME.format(new Date(reminder.at));
  const rows = [
    { label: 'Próximo contacto', value: when },
    { label: 'Teléfono', value: formatPhone(reminder.phone) },
  ];
  return panelLinkEmail(deliveryId, 'reminder', { title, rows, action: 'Abrir en el panel' }, reminder);
}

/**
 * A notice to one member (`recipient.to`): its title, a table of facts and one
 * button to the panel (`recipient.url`); text and HTML alike.
 */
function panelLinkEmail(
  deliveryId: string,
  purpose: string,
  content: { title: string; rows: { label: string; value: string }[]; action: string },
  recipient: { url: string; to: string },
): EmailContent {
  const { title, rows, action } = content;
  const { url } = recipient;
  return {
    subject: `${title} · ${site.brand.name}`,
    text: [title, '', ...rows.map((row) => `${row.label}: ${row.value}`), '', `${action}: ${url}`].join('\n'),
    html: htmlPage(
      title,
      `<h1 style="font-size:20px">${escapeHtml(title)}</h1>${htmlTable(rows)}<p>${button(url, action)}</p>`,
    ),
    messageId: messageId(deliveryId, purpose),
    to: [recipient.to],
  };
}

export function inboundMessageEmail(deliveryId: string, notice: InboundMessageNotice): EmailContent {
  const title = `${nameOrPhone(notice.contactName, notice.phone)} te escribió por WhatsApp`;
  const rows = [
    { label: 'Mensaje', value: notice.preview },
    { label: 'Sin leer', value: String(notice.unread) },
  ];
  return panelLinkEmail(deliveryId, 'message', { title, rows, action: 'Responder en el panel' }, notice);
}
