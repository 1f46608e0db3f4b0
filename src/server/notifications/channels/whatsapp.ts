import type { NotificationConfig } from '../../config.ts';

type WhatsappConfig = NonNullable<NotificationConfig['whatsapp']>;

const TIMEOUT_MS = 10_000;

/**
 * Sends the approved template to the sales number through the WhatsApp
 * Business Cloud API (POST /{phone-number-id}/messages, Meta's documented
 * request), with the template's body parameters in order.
 */
export async function sendWhatsapp(config: WhatsappConfig, parameters: readonly string[]): Promise<string> {
  const response = await fetch(`${config.apiUrl}/${config.phoneNumberId}/messages`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: config.to,
      type: 'template',
      template: {
        name: config.template,
        language: { code: config.language },
        components: [
          // Meta refuses a parameter with new lines, tabs or more than 4 spaces in a row.
          { type: 'body', parameters: parameters.map((text) => ({ type: 'text', text: templateText(text) })) },
        ],
      },
    }),
    redirect: 'error',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const answer = (await response.json().catch(() => null)) as {
    messages?: { id?: string }[];
    error?: { message?: string; code?: number };
  } | null;
  const id = answer?.messages?.[0]?.id;
  if (response.ok && id) return `WhatsApp ${id}`;
  const reason = answer?.error
    ? `código ${answer.error.code ?? '?'}: ${answer.error.message ?? ''}`
    : `HTTP ${response.status}`;
  throw new Error(`WhatsApp rechazó el mensaje (${reason.trim()})`);
}

function templateText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return (flat || '—').slice(0, 1000);
}
