import nodemailer, { type Transporter } from 'nodemailer';
import type { NotificationConfig } from '../../config.ts';

type EmailConfig = NonNullable<NotificationConfig['email']>;

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
  /** Stable per notification, so a mail client can tell a repeated delivery. */
  messageId: string;
}

const transports = new Map<string, Transporter>();

function transportFor(config: EmailConfig): Transporter {
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
  const info = await transportFor(config).sendMail({
    from: config.from,
    to: [...to],
    subject: content.subject,
    text: content.text,
    html: content.html,
    messageId: content.messageId,
  });
  return `SMTP ${info.response ?? 'aceptado'}`;
}

/** Whether the SMTP server answers and accepts our credentials (checked at start, reported, not fatal). */
export async function verifyEmail(config: EmailConfig): Promise<void> {
  await transportFor(config).verify();
}

export function closeEmailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}
