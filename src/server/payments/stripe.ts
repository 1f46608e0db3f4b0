import type Stripe from 'stripe';
import type { PaymentsConfig } from '../config.ts';

/**
 * The Stripe client of this process (decision 0070): the official SDK, no
 * telemetry, a bounded wait. Against the test suite's fake (STRIPE_API_BASE)
 * it talks plain HTTP to 127.0.0.1 and never retries; against Stripe it
 * retries twice (the SDK sends the same idempotency key again).
 *
 * The SDK (218 modules, about a quarter of a server's start) is loaded when
 * first needed, never by a process that takes no payment.
 */
let client: { key: string; stripe: Promise<Stripe> } | undefined;

export function stripeFor(config: PaymentsConfig): Promise<Stripe> {
  const key = `${config.secretKey}|${config.apiBase ?? ''}`;
  if (client?.key === key) return client.stripe;
  const stripe = import('stripe').then(({ default: StripeClient }) => clientOf(StripeClient, config));
  client = { key, stripe };
  return stripe;
}

function clientOf(StripeClient: typeof Stripe, config: PaymentsConfig): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : null;
  return new StripeClient(config.secretKey, {
    telemetry: false,
    timeout: 10_000,
    maxNetworkRetries: base ? 0 : 2,
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === 'http:' ? '80' : '443'),
      protocol: base.protocol === 'http:' ? 'http' : 'https',
    }),
  });
}

/** The SDK's own check of a webhook's signature (Stripe-Signature, 300 s tolerance); throws when it fails. */
export async function verifiedEvent(config: PaymentsConfig, payload: string, signature: string): Promise<Stripe.Event> {
  return (await stripeFor(config)).webhooks.constructEventAsync(payload, signature, config.webhookSecret);
}

export type { Stripe };
