import type { Transporter } from 'nodemailer';
import type { NotificationConfig } from '../../config.ts';
import {
  type EmailContent,
  inboundMessageEmail,
  leadEmail,
  reminderEmail,
  summaryEmail,
  testEmail,
} from '../render.ts';

export type { EmailContent } from '../render.ts';

import { type ChannelModule, classifyFailure } from './channel.ts';

type EmailConfig = NonNullable<NotificationConfig['email']>;

const transports = new Map<string, Transporter>();
/** nodemailer (39 modules), loaded by the first process that sends or checks an e-mail, not by every start. */
let mailer: Promise<typeof import('nodemailer')> | undefined;

async function transportFor(config: EmailConfig): Promise<Transporter> {
  const known = transports.get(config.smtpUrl);
  if (known) return known;
  mailer ??= import('nodemailer');
  const { default: nodemailer } = await mailer;
  // Another send may have made it while the module loaded.
  let transport = transports.get(config.smtpUrl);
  if (!transport) {
    transport = nodemailer.createTransport({
      url: config.smtpUrl,
      // Every wait is bounded: a receiver that hangs makes a failed attempt, retried later.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 15_000,
    });
    transports.set(config.smtpUrl, transport);
  }
  return transport;
}

/**
 * Sends one e-mail, to every NOTIFY_EMAIL_TO address unless `to` says
 * otherwise (an invitation); throws with the server's reason when refused.
 */
export async function sendEmail(
  config: EmailConfig,
  content: EmailContent,
  to: readonly string[] = config.to,
): Promise<string> {
  const info = await (await transportFor(config)).sendMail({
    from: config.from,
    to: [...to],
    subject: content.subject,
    text: content.text,
    html: content.html,
    messageId: content.messageId,
    ...(content.attachments && { attachments: content.attachments.map((file) => ({ ...file })) }),
  });
  return `SMTP ${info.response ?? 'aceptado'}`;
}

/** Whether the SMTP server answers and accepts our credentials (checked at start, reported, not fatal). */
export async function verifyEmail(config: EmailConfig): Promise<void> {
  await (await transportFor(config)).verify();
}

export function closeEmailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

/** nodemailer's codes, in the team's words. */
const SMTP_REASONS: Record<string, string> = {
  ECONNECTION: 'No se pudo conectar con el servidor SMTP',
  ESOCKET: 'Falló la conexión con el servidor SMTP',
  EAUTH: 'El servidor SMTP rechazó el usuario o la contraseña',
  EENVELOPE: 'El servidor SMTP rechazó el remitente o los destinatarios',
  EMESSAGE: 'El servidor SMTP rechazó el mensaje',
};

/** E-mail to NOTIFY_EMAIL_TO through SMTP_URL: the only channel that carries the 8:00 summary and the reminders (to the member). */
export const emailChannel: ChannelModule<EmailConfig, EmailContent> = {
  target: (settings) => settings.to.join(', '),
  render: {
    lead: ({ lead }) => leadEmail(lead),
    test: ({ deliveryId }) => testEmail(deliveryId, 'el equipo'),
    summary: ({ deliveryId, summary }) => summaryEmail(deliveryId, summary),
    reminder: ({ deliveryId, reminder }) => reminderEmail(deliveryId, reminder),
    message: ({ deliveryId, message }) => inboundMessageEmail(deliveryId, message),
  },
  send: (settings, content) =>
    sendEmail(settings, content, content.to ?? [...new Set([...settings.to, ...(content.also ?? [])])]),
  classify: (error) => classifyFailure(error, SMTP_REASONS),
};
