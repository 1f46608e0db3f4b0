import { site } from '../../data/site.ts';
import { publicSiteUrl, type ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { queueAccountEmail } from '../team/account-mail.ts';

/**
 * The conversations lane's job when the day's allowance of automatic first
 * replies ran out (allowance.ts, decision 0049): one e-mail to every active
 * administrator (NOTIFY_EMAIL_TO when there is none), each queued as an
 * account e-mail (its own job and retries). Kept apart from the send path so
 * the panel's functions do not bundle the mailer.
 */
export async function alertAdministrators(db: Database, payload: unknown, config: ServerConfig): Promise<void> {
  const email = config.notifications.email;
  const sent = Number((payload as { sent?: unknown } | null)?.sent);
  if (!email || !Number.isInteger(sent)) return;
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ email: string }>(
      `SELECT DISTINCT u.email FROM users u JOIN user_roles r ON r.user_id = u.id
       WHERE r.role = 'admin' AND u.deactivated_at IS NULL ORDER BY u.email`,
    );
    const recipients = rows.length > 0 ? rows.map((row) => row.email) : email.to;
    const link = `${publicSiteUrl(config)}/admin`;
    const text = [
      `Hoy el sitio ya envió ${sent} respuestas automáticas por WhatsApp, el límite diario (WHATSAPP_FIRST_REPLY_DAILY_LIMIT).`,
      '',
      'Los prospectos nuevos que lleguen hasta la medianoche (hora de Mérida) no reciben la respuesta automática: en su conversación aparece «Retenida: escríbele tú» y un asesor debe escribirles desde el panel con una plantilla. Sus solicitudes se guardan y avisan como siempre.',
      '',
      'Si hoy no esperaban tantas solicitudes, revisen que no sea un abuso del formulario. Mañana el límite empieza de nuevo.',
      '',
      `Abrir el panel: ${link}`,
    ].join('\n');
    const expiresAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
    for (const to of recipients) {
      await queueAccountEmail(tx, {
        to,
        subject: `Límite diario de respuestas automáticas por WhatsApp alcanzado · ${site.brand.name}`,
        text,
        link,
        expiresAt,
      });
    }
  });
}
