import { site } from '../../../data/site.ts';
import type { NotificationConfig } from '../../config.ts';
import type { LeadMessage } from '../message.ts';
import { TEST_TITLE } from '../render.ts';
import { type ChannelModule, classifyFailure } from './channel.ts';

type WhatsappConfig = NonNullable<NotificationConfig['whatsapp']>;

const TIMEOUT_MS = 10_000;

/**
 * Cloud API error codes that no retry fixes (Meta's error code reference):
 * 190 access token, 100 invalid parameter, 131030 recipient not allowed,
 * 132000-132016 template missing, paused, disabled or with wrong parameters.
 */
const PERMANENT_CODES = new Set([100, 190, 131030, 132000, 132001, 132005, 132007, 132012, 132015, 132016]);

/** Meta's answer when it refused the message: `permanent` when no retry fixes it. */
export class WhatsappRefusal extends Error {
  override name = 'WhatsappRefusal';
  readonly permanent: boolean;
  constructor(message: string, permanent: boolean) {
    super(message);
    this.permanent = permanent;
  }
}

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
  const code = answer?.error?.code;
  const reason = answer?.error
    ? `código ${answer.error.code ?? '?'}: ${answer.error.message ?? ''}`
    : `HTTP ${response.status}`;
  throw new WhatsappRefusal(
    `WhatsApp rechazó el mensaje (${reason.trim()})`,
    (code !== undefined && PERMANENT_CODES.has(code)) || response.status === 401 || response.status === 403,
  );
}

function templateText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return (flat || '—').slice(0, 1000);
}

/** The WhatsApp template's body parameters {{1}} to {{4}} (README): form, person, phone, panel link. */
export function leadWhatsappParameters(lead: LeadMessage): string[] {
  return [lead.title, lead.headline, lead.phone, lead.links.panel];
}

export function testWhatsappParameters(panelUrl: string): string[] {
  return [TEST_TITLE, site.brand.name, '—', panelUrl];
}

/** The approved template to WHATSAPP_TO through Meta's Cloud API. */
export const whatsappChannel: ChannelModule<WhatsappConfig, string[]> = {
  target: (settings) => `…${settings.to.slice(-4)}`,
  render: {
    lead: ({ lead }) => leadWhatsappParameters(lead),
    test: ({ panelUrl }) => testWhatsappParameters(panelUrl),
  },
  send: sendWhatsapp,
  classify(error) {
    // A bad token, number or template stays bad: retrying for hours would only hide it.
    if (error instanceof WhatsappRefusal && error.permanent) {
      const advice = 'Revisa WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID y WHATSAPP_TEMPLATE.';
      return { permanent: true, reason: `${error.message}. ${advice}`.slice(0, 500) };
    }
    return classifyFailure(error);
  },
};
