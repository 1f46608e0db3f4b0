import type { Config } from '@netlify/functions';
import { getConfig } from '../../src/server/config.ts';
import { readAtMost } from '../../src/server/http/body.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { DATABASE_DOWN, json, jsonError } from '../../src/server/http/responses.ts';
import { handshake, MAX_WEBHOOK_BYTES, signatureValid, storeDelivery } from '../../src/server/whatsapp/webhook.ts';

const OFF = 'Las conversaciones de WhatsApp no están configuradas.';

/**
 * The Cloud API's webhook (decision 0039).
 * GET: the verification handshake: `hub.mode=subscribe` and `hub.verify_token`
 * equal to WHATSAPP_VERIFY_TOKEN answer `hub.challenge` as text; otherwise 403.
 * POST: 401 unless X-Hub-Signature-256 is the HMAC-SHA256 of the raw body with
 * WHATSAPP_APP_SECRET; then the delivery is stored (one INSERT with the
 * deliveries that arrived with it, committed before any of them is answered)
 * and answered 200; its job, added after the answer, processes it. The platform
 * retries what is not answered 200, so a database down is a 503.
 * Not same-origin: Meta's servers call it; the signature stands for the origin.
 */
export default endpoints(
  'whatsapp-webhook',
  [
    {
      method: 'GET',
      path: '/api/whatsapp/webhook',
      access: 'public',
      async work({ url }) {
        const whatsapp = getConfig().whatsapp;
        if (!whatsapp) return jsonError(404, OFF);
        const challenge = handshake(url, whatsapp.verifyToken);
        if (challenge === null) return jsonError(403, 'Token de verificación incorrecto.');
        return new Response(challenge, {
          status: 200,
          headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
        });
      },
    },
    {
      method: 'POST',
      path: '/api/whatsapp/webhook',
      access: 'public',
      async work({ request, context }) {
        const whatsapp = getConfig().whatsapp;
        if (!whatsapp) return jsonError(404, OFF);
        let raw: Uint8Array | null;
        try {
          raw = await readAtMost(request, MAX_WEBHOOK_BYTES);
        } catch {
          return jsonError(400, 'La solicitud llegó incompleta.');
        }
        if (!raw) return jsonError(413, 'La solicitud es demasiado grande.');
        if (!signatureValid(raw, request.headers.get('x-hub-signature-256'), whatsapp.appSecret)) {
          return jsonError(401, 'Firma de WhatsApp ausente o incorrecta.');
        }
        let text: string;
        // Parsed once here to refuse what is not JSON; stored as the text received.
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
          const value: unknown = JSON.parse(text);
          if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
        } catch {
          return jsonError(400, 'Los datos enviados no son JSON válido.');
        }
        let jobs: Promise<void>;
        try {
          // Committed (with the deliveries that arrived with it) before the answer.
          ({ jobs } = await storeDelivery(text));
        } catch {
          return jsonError(503, DATABASE_DOWN);
        }
        context.waitUntil?.(jobs);
        return json(200, {});
      },
    },
  ],
  { sameOrigin: false },
);

export const config: Config = { path: '/api/whatsapp/webhook' };
