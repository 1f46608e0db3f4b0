import { site } from '../../data/site.ts';
import { publicSiteUrl, type ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { queueAccountEmail } from '../team/account-mail.ts';

/** What the e-mail says, by the allowance that ran out (allowance.ts, decision 0068). */
const FIRST_REPLIES = {
  subject: 'Límite diario de respuestas automáticas por WhatsApp alcanzado',
  reached: (sent: number) =>
    `Hoy el sitio ya envió ${sent} respuestas automáticas por WhatsApp, el límite diario (WHATSAPP_FIRST_REPLY_DAILY_LIMIT).`,
  meaning:
    'Los prospectos nuevos que lleguen hasta la medianoche (hora de Mérida) no reciben la respuesta automática: en su conversación aparece «Retenida: escríbele tú» y un asesor debe escribirles desde el panel con una plantilla. Sus solicitudes se guardan y avisan como siempre.',
  advice:
    'Si hoy no esperaban tantas solicitudes, revisen que no sea un abuso del formulario. Mañana el límite empieza de nuevo.',
};
const APPOINTMENTS = {
  subject: 'Límite diario de mensajes de citas por WhatsApp alcanzado',
  reached: (sent: number) =>
    `Hoy el sitio ya envió ${sent} mensajes de citas por WhatsApp (confirmaciones, recordatorios y avisos de cambios), el límite diario (WHATSAPP_APPOINTMENT_DAILY_LIMIT).`,
  meaning:
    'Hasta la medianoche (hora de Mérida), los mensajes de citas no salen por WhatsApp: en su conversación aparece «Retenida: escríbele tú». El correo de la cita sigue saliendo a quien dejó su correo. Las respuestas automáticas a prospectos nuevos tienen su propio límite y siguen saliendo.',
  advice:
    'Si hoy no esperaban tantas citas, revisen en la Agenda que no sean reservas falsas. Mañana el límite empieza de nuevo.',
};

/**
 * The conversations lane's job when a day's allowance of automatic templates
 * ran out (allowance.ts, decisions 0049 and 0068): one e-mail to every active
 * administrator (NOTIFY_EMAIL_TO when there is none), each queued as an
 * account e-mail (its own job and retries). Kept apart from the send path so
 * the panel's functions do not bundle the mailer.
 */
export async function alertAdministrators(db: Database, payload: unknown, config: ServerConfig): Promise<void> {
  const email = config.notifications.email;
  const sent = Number((payload as { sent?: unknown } | null)?.sent);
  if (!email || !Number.isInteger(sent)) return;
  const words = (payload as { purpose?: unknown } | null)?.purpose === 'appointment' ? APPOINTMENTS : FIRST_REPLIES;
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ email: string }>(
      `SELECT DISTINCT u.email FROM users u JOIN user_roles r ON r.user_id = u.id
       WHERE r.role = 'admin' AND u.deactivated_at IS NULL ORDER BY u.email`,
    );
    const recipients = rows.length > 0 ? rows.map((row) => row.email) : email.to;
    const link = `${publicSiteUrl(config)}/admin`;
    const text = [words.reached(sent), '', words.meaning, '', words.advice, '', `Abrir el panel: ${link}`].join('\n');
    const expiresAt = new Date(Date.now() + 24 * 3_600_000).toISOString();
    for (const to of recipients) {
      await queueAccountEmail(tx, {
        to,
        subject: `${words.subject} · ${site.brand.name}`,
        text,
        link,
        expiresAt,
      });
    }
  });
}
