/**
 * The launch check of online payments (issue #41), read from the environment
 * `npm run check:launch` runs in (the deploy's variables): Stripe's key
 * without its webhook's secret would take money that never confirms a
 * single appointment; the secret without the key, a webhook for nothing; a
 * test-mode key in production, payments that are make-believe. Neither set
 * is fine: the consultations keep the payment link of site.json. Each
 * problem in Spanish, naming the variable to set.
 */
export function paymentsLaunchProblems(env: Record<string, string | undefined>): string[] {
  const key = env.STRIPE_SECRET_KEY?.trim();
  const secret = env.STRIPE_WEBHOOK_SECRET?.trim();
  const problems: string[] = [];
  if (key && !secret)
    problems.push(
      'Falta STRIPE_WEBHOOK_SECRET: el secreto de firma (whsec_…) que Stripe muestra para el webhook https://<tu sitio>/api/pagos/stripe/webhook. Sin él ningún pago confirma su cita.',
    );
  if (secret && !key)
    problems.push('Falta STRIPE_SECRET_KEY: la llave secreta o restringida de Stripe (sk_live_… o rk_live_…).');
  const production = env.NODE_ENV === 'production' || env.CONTEXT === 'production';
  if (key && production && !/^(sk|rk)_live_/.test(key))
    problems.push(
      'STRIPE_SECRET_KEY es una llave de prueba: en producción va la llave en vivo (sk_live_… o rk_live_…).',
    );
  return problems;
}
