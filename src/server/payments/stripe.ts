import Stripe from 'stripe';
import type { PaymentsConfig } from '../config.ts';

/**
 * The Stripe client of this process (decision 0070): the official SDK, no
 * telemetry, a bounded wait. Against the test suite's fake (STRIPE_API_BASE)
 * it talks plain HTTP to 127.0.0.1 and never retries; against Stripe it
 * retries twice (the SDK sends the same idempotency key again).
 */
let client: { key: string; stripe: Stripe } | undefined;

export function stripeFor(config: PaymentsConfig): Stripe {
  const key = `${config.secretKey}|${config.apiBase ?? ''}`;
  if (client?.key === key) return client.stripe;
  const base = config.apiBase ? new URL(config.apiBase) : null;
  const stripe = new Stripe(config.secretKey, {
    telemetry: false,
    timeout: 10_000,
    maxNetworkRetries: base ? 0 : 2,
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === 'http:' ? '80' : '443'),
      protocol: base.protocol === 'http:' ? 'http' : 'https',
    }),
  });
  client = { key, stripe };
  return stripe;
}

/** The SDK's own check of a webhook's signature (Stripe-Signature, 300 s tolerance); throws when it fails. */
export function verifiedEvent(config: PaymentsConfig, payload: string, signature: string): Promise<Stripe.Event> {
  return stripeFor(config).webhooks.constructEventAsync(payload, signature, config.webhookSecret);
}

export type { Stripe };
