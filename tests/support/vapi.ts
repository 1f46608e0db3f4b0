import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setupAdmin } from './admin.ts';
import { type SmtpReceiver, startSmtpReceiver } from './receivers.ts';
import { type RunningServer, startServer } from './server.ts';

/** The secret the tests' assistant sends with its server messages. */
export const VOICE_SECRET = 'secreto-del-asistente-de-voz-2026';

/**
 * A server that takes the voice platform's messages (VOICE_SECRET) and
 * e-mails the sales team through a real SMTP receiver, with an administrator
 * signed in (`admin` is the session cookie).
 */
export async function startVoiceSite(
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; smtp: SmtpReceiver; admin: string }> {
  const smtp = await startSmtpReceiver();
  const server = await startServer({
    VAPI_WEBHOOK_SECRET: VOICE_SECRET,
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'avisos@ceibacasas.mx',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
    ...env,
  });
  return { server, smtp, admin: await setupAdmin(server.url) };
}

/** The voice platform's server messages, from tests/fixtures/vapi (written from its documentation). */
export function vapiFixture(name: string): {
  message: Record<string, unknown>;
} {
  return JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/vapi', `${name}.json`), 'utf8')) as {
    message: Record<string, unknown>;
  };
}

/** The full end-of-call report for another call: its own id and, when given, its own structured data. */
export function vapiReport(callId: string, structuredData?: Record<string, unknown>) {
  const report = vapiFixture('end-of-call-report') as {
    message: Record<string, unknown> & {
      call: { id: string };
      analysis: { structuredData: unknown };
    };
  };
  report.message.call.id = callId;
  if (structuredData) report.message.analysis.structuredData = structuredData;
  return report;
}
