import { z } from 'zod';
import { findTemplate, templateVariables } from '../lib/whatsapp/templates.ts';
import { normalizeAddress, type TrustProxy } from './ip-address.ts';

/**
 * Server configuration, read from the environment and checked once.
 * Every variable is documented in docs/configuration.md and .env.example
 * (tests/lint/configuration-doc.test.ts reads the schema's keys).
 */
/** An unset or blank variable is absent (a `.env` line `SMTP_URL=` turns the channel off). */
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/**
 * An http(s) URL without user:password: fetch refuses those, and its error
 * (shown in the panel, written to the logs) would carry the password.
 */
const webUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .refine(
    (value) => !/^[a-z]+:\/\/[^/?#]*@/i.test(value),
    'must not contain a user or password (use NOTIFY_WEBHOOK_SECRET)',
  );

const PG_PORT_MESSAGE = 'must be a TCP port from 1 to 65535 (unset or 0: a free port)';

export const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  DATABASE_DRIVER: z.enum(['pg', 'neon']).optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(5_000),
  NEON_WS_PROXY: z.string().min(1).optional(),
  LEAD_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  PLATFORM_RATE_LIMIT: z.enum(['0', '1']).default('1'),
  JWT_SECRET: z
    .string()
    .refine((value) => Buffer.byteLength(value) >= 32, 'must be at least 32 bytes')
    .optional(),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: optionalText.transform((value) => value ?? '.data'),
  PG_PORT: optionalText.pipe(
    z.coerce
      .number<string>({ error: PG_PORT_MESSAGE })
      .int({ error: PG_PORT_MESSAGE })
      .min(0, { error: PG_PORT_MESSAGE })
      .max(65_535, { error: PG_PORT_MESSAGE })
      .optional(),
  ),
  NETLIFY: z.string().optional(),
  // Set by Netlify in the functions' runtime (NETLIFY is only a build variable there): the site's id and main URL.
  SITE_ID: optionalText,
  URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/ })
      .optional()
      .catch(undefined),
  ),
  EXIT_WITH_PARENT: z.enum(['0', '1']).default('0'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context): TrustProxy => {
      const text = value?.trim() ?? '';
      if (text === '' || text === 'false') return false;
      if (text === 'loopback') return 'loopback';
      const addresses = text.split(',').map((entry) => normalizeAddress(entry));
      if (addresses.every((address) => address !== null)) return addresses as string[];
      context.addIssue({ code: 'custom', message: 'must be "loopback" or a comma-separated list of IP addresses' });
      return z.NEVER;
    }),
  SITE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  LAUNCH_CHECK: optionalText.pipe(z.enum(['strict', 'warn'], { error: 'must be "strict" or "warn"' }).optional()),
  VAPI_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .refine(
        (value) => Buffer.byteLength(value) >= 16,
        'must be at least 16 characters (the secret set on the assistant)',
      )
      .optional(),
  ),
  SMTP_URL: optionalText.pipe(
    z
      .url({
        protocol: /^smtps?$/,
        error: 'must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com',
      })
      .optional(),
  ),
  NOTIFY_EMAIL_FROM: optionalText.pipe(z.string().optional()),
  NOTIFY_EMAIL_TO: optionalText.transform((value, context) => {
    if (value === undefined) return [];
    const addresses = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const wrong = addresses.filter((address) => !z.email().safeParse(address).success);
    if (wrong.length === 0) return addresses;
    context.addIssue({ code: 'custom', message: `not an e-mail address: ${wrong.join(', ')}` });
    return z.NEVER;
  }),
  NOTIFY_WEBHOOK_URL: optionalText.pipe(webUrl.optional()),
  NOTIFY_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .refine((value) => Buffer.byteLength(value) >= 16, 'must be at least 16 bytes')
      .optional(),
  ),
  WHATSAPP_TOKEN: optionalText.pipe(z.string().optional()),
  WHATSAPP_PHONE_NUMBER_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{5,20}$/, 'must be the numeric id Meta shows')
      .optional(),
  ),
  WHATSAPP_TEMPLATE: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name (a-z, 0-9, _)')
      .optional(),
  ),
  WHATSAPP_TEMPLATE_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a language code such as es_MX')
    .default('es_MX'),
  WHATSAPP_TO: optionalText.pipe(
    z
      .string()
      .regex(/^\d{10,15}$/, 'must be digits with the country code, e.g. 5219991234567')
      .optional(),
  ),
  WHATSAPP_API_URL: webUrl.default('https://graph.facebook.com/v23.0'),
  // Conversations (issue #27): the webhook's secrets, the media's hosts and the instant first reply.
  WHATSAPP_APP_SECRET: optionalText.pipe(
    z
      .string()
      .refine((value) => Buffer.byteLength(value) >= 16, 'must be the app secret Meta shows (at least 16 characters)')
      .optional(),
  ),
  WHATSAPP_VERIFY_TOKEN: optionalText.pipe(
    z
      .string()
      .refine((value) => Buffer.byteLength(value) >= 8, 'must be at least 8 characters')
      .optional(),
  ),
  WHATSAPP_MEDIA_HOSTS: optionalText.transform((value, context) => {
    const hosts = (value ?? 'lookaside.fbsbx.com')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    const wrong = hosts.filter((host) => !/^[a-z0-9.-]+(:\d{1,5})?$/.test(host));
    if (wrong.length === 0) return hosts;
    context.addIssue({ code: 'custom', message: `not a host name (host or host:port): ${wrong.join(', ')}` });
    return z.NEVER;
  }),
  WHATSAPP_FIRST_REPLY_TEMPLATE: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name (a-z, 0-9, _) listed in src/lib/whatsapp/templates.ts')
      .optional(),
  ),
  // Automatic first replies sent per day (Mérida) for the whole site; the rest wait for an adviser (decision 0049).
  WHATSAPP_FIRST_REPLY_DAILY_LIMIT: z.coerce.number().int().min(1).max(100_000).default(50),
  // Appointments' automatic templates (confirmations, reminders, notices) per day, counted apart (decision 0068).
  WHATSAPP_APPOINTMENT_DAILY_LIMIT: z.coerce.number().int().min(1).max(100_000).default(150),
  // The team's WhatsApp notices of new leads (WHATSAPP_TO) per day: each is a paid template (migration 0052).
  WHATSAPP_NOTIFY_DAILY_LIMIT: z.coerce.number().int().min(1).max(100_000).default(500),
  NOTIFY_RETRY_DELAYS: z
    .string()
    .default('60,300,1800,7200,43200')
    .transform((value, context) => {
      const delays = value.split(',').map((entry) => Number(entry.trim()));
      if (delays.length > 0 && delays.length <= 10 && delays.every((delay) => Number.isInteger(delay) && delay >= 0)) {
        return delays;
      }
      context.addIssue({ code: 'custom', message: 'must be 1 to 10 comma-separated whole numbers of seconds' });
      return z.NEVER;
    }),
  NOTIFY_LOCK_TIMEOUT_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
  // Web Push (RFC 8292 VAPID): `npx web-push generate-vapid-keys`; unset, the panel offers no push.
  VAPID_PUBLIC_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, 'must be the URL-safe base64 public key web-push generates (87 characters)')
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the URL-safe base64 private key web-push generates (43 characters)')
      .optional(),
  ),
  VAPID_SUBJECT: optionalText.pipe(
    z
      .string()
      .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: address or an https: URL')
      .optional(),
  ),
  // The test suite's fake push service (tests/support/push-service.ts, https on 127.0.0.1): its origin is
  // accepted as a push endpoint besides the browsers' push services. Test-only: any other NODE_ENV refuses to start.
  PUSH_TEST_SERVICE_URL: optionalText.pipe(
    z
      .url({ protocol: /^https$/, error: 'must be the https:// origin of the test suite’s fake push service' })
      .optional(),
  ),
  // Online payments (issue #41, decision 0070): Stripe Checkout; unset, the consultations keep site.json's payment link.
  STRIPE_SECRET_KEY: optionalText.pipe(
    z
      .string()
      .regex(
        /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/,
        'must be a Stripe secret or restricted key (sk_live_…, rk_live_…)',
      )
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=_-]{8,}$/, 'must be the signing secret Stripe shows for the endpoint (whsec_…)')
      .optional(),
  ),
  // The test suite's fake of Stripe's API (tests/support/stripe-fake.ts). Test-only, as PUSH_TEST_SERVICE_URL.
  STRIPE_API_BASE: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be the http(s):// origin of the test suite’s fake Stripe' }).optional(),
  ),
  // Conversions told to Meta (issue #43, decision 0072): the Conversions API's dataset (pixel) and its token.
  META_DATASET_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{5,25}$/, 'must be the dataset (pixel) id, digits only')
      .optional(),
  ),
  META_ACCESS_TOKEN: optionalText.pipe(z.string().min(20, 'must be the Conversions API access token').optional()),
  // …and to Google through its Data Manager API: the Google Ads account, the conversion actions by event
  // ("lead:123,schedule:456,purchase:789,won:1011"), and an OAuth client with its refresh token.
  GOOGLE_ADS_CUSTOMER_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{10}$/, 'must be the 10-digit Google Ads customer id, without dashes')
      .optional(),
  ),
  GOOGLE_ADS_CONVERSION_ACTIONS: optionalText.pipe(
    z
      .string()
      .regex(
        /^(lead|schedule|purchase|won):\d{1,20}(,(lead|schedule|purchase|won):\d{1,20})*$/,
        'must be event:action pairs, e.g. "lead:123,won:456" (events: lead, schedule, purchase, won)',
      )
      .optional(),
  ),
  GOOGLE_OAUTH_CLIENT_ID: optionalText,
  GOOGLE_OAUTH_CLIENT_SECRET: optionalText,
  GOOGLE_OAUTH_REFRESH_TOKEN: optionalText,
  // The test suite's fakes of both platforms (tests/support/ad-platforms.ts). Test-only.
  AD_PLATFORMS_TEST_BASE: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be the http(s):// origin of the test suite’s fake ad platforms' })
      .optional(),
  ),
});

/** The environment as the schema checks it: the interfaces below take their fields' types from it. */
type Environment = z.output<typeof environmentSchema>;

export interface ServerConfig {
  databaseUrl: Environment['DATABASE_URL'];
  databaseDriver: NonNullable<Environment['DATABASE_DRIVER']>;
  databasePoolMax: Environment['DATABASE_POOL_MAX'];
  /** How long a new connection may take before the request answers 503 (pg and Neon alike). */
  databaseConnectTimeoutMs: Environment['DATABASE_CONNECT_TIMEOUT_MS'];
  neonWsProxy: Environment['NEON_WS_PROXY'];
  /** Lead submissions allowed per IP and endpoint in 10 minutes; 0 turns the limit off. */
  leadRateLimit: Environment['LEAD_RATE_LIMIT'];
  /** The local server applies each function's `config.rateLimit` (PLATFORM_RATE_LIMIT=0 turns it off). */
  platformRateLimit: boolean;
  /** Where the local server listens. */
  port: Environment['PORT'];
  host: Environment['HOST'];
  /** Local state of this checkout (the embedded PostgreSQL, the generated JWT secret), relative to the project root. */
  dataDir: Environment['DATA_DIR'];
  /** TCP port of the local server's embedded PostgreSQL; a free one when absent. */
  pgPort: Environment['PG_PORT'];
  /** Secret of the administrators' session tokens; generated for local runs when absent. */
  jwtSecret: Environment['JWT_SECRET'];
  /** Production (NODE_ENV=production or on Netlify): no generated secrets, no defaults that hide a mistake. */
  production: boolean;
  /** Reverse proxies whose X-Forwarded-* headers the local server believes (none by default). */
  trustProxy: Environment['TRUST_PROXY'];
  /** How long the local server drains its connections on SIGTERM before closing the rest. */
  shutdownGraceMs: Environment['SHUTDOWN_GRACE_MS'];
  /** The local server stops when the process that started it is gone (tests, benchmarks). */
  exitWithParent: boolean;
  /**
   * SITE_URL as configured; read it through publicSiteUrl(), which gives the
   * local default and refuses production without it.
   */
  siteUrl: string | undefined;
  /**
   * What the local server does when the site's data still has launch
   * placeholders (src/server/local/launch.ts): `strict` refuses to start,
   * `warn` logs them; unset, strict in production.
   */
  launchCheck: Environment['LAUNCH_CHECK'];
  /** The secret the voice platform sends with its server messages; without it /api/voice/events answers 401. */
  voiceWebhookSecret: Environment['VAPI_WEBHOOK_SECRET'];
  notifications: NotificationConfig;
  /** WhatsApp conversations (issue #27, decision 0039); null when their variables are unset. */
  whatsapp: WhatsappConfig | null;
  /** Web Push to the members' devices (reminders); null when its VAPID variables are unset. */
  push: PushConfig | null;
  /** Online payments through Stripe Checkout (issue #41); null when its variables are unset. */
  payments: PaymentsConfig | null;
  /** The ad platforms told of conversions (issue #43). */
  conversions: ConversionsConfig;
}

/** Stripe as the payments use it (decision 0070). */
export interface PaymentsConfig {
  secretKey: string;
  /** Signs the webhook's events (Stripe-Signature). */
  webhookSecret: string;
  /** Whether the key is a live one (sk_live_, rk_live_): events of the other mode are refused. */
  live: boolean;
  /** The test suite's fake of the API (STRIPE_API_BASE); null: Stripe's own. */
  apiBase: string | null;
}

/** Where conversions go (issue #43, decision 0072): each destination null while not configured. */
export interface ConversionsConfig {
  meta: { datasetId: string; accessToken: string; apiBase: string } | null;
  google: {
    customerId: string;
    actions: Partial<Record<'lead' | 'schedule' | 'purchase' | 'won', string>>;
    clientId: string;
    clientSecret: string;
    refreshToken: string;
    apiBase: string;
    tokenUrl: string;
  } | null;
}

/** The VAPID keys and contact that sign every push (RFC 8292). */
export interface PushConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
  /**
   * The origin of the test suite's fake push service, accepted as an endpoint
   * besides the browsers' push services (push-endpoint.ts); null everywhere
   * but under NODE_ENV=test (PUSH_TEST_SERVICE_URL, decision 0052).
   */
  testService: string | null;
}

/** The Cloud API as the conversations use it: the business number, the webhook's secrets, where media may come from. */
export interface WhatsappConfig {
  token: string;
  phoneNumberId: string;
  /** Graph API base with its version, without a trailing slash (WHATSAPP_API_URL). */
  apiUrl: string;
  /** Signs the webhook's deliveries (X-Hub-Signature-256). */
  appSecret: string;
  /** The webhook's verification handshake. */
  verifyToken: string;
  /** Hosts (host or host:port) media are fetched from: WHATSAPP_API_URL's and WHATSAPP_MEDIA_HOSTS. */
  mediaHosts: string[];
  /** The template sent at once to a new lead with a phone; null: no first reply. */
  firstReplyTemplate: string | null;
  /** First replies sent per day (Mérida) for the whole site; the rest are held for an adviser. */
  firstReplyDailyLimit: number;
  /** Appointments' templates sent per day (Mérida) for the whole site; the rest are held for an adviser. */
  appointmentDailyLimit: number;
}

/** The notification channels that are configured; an absent channel is off and enqueues nothing. */
export interface NotificationConfig {
  email: { smtpUrl: string; from: string; to: string[] } | null;
  webhook: { url: string; secret: string } | null;
  whatsapp: {
    token: string;
    phoneNumberId: string;
    template: string;
    language: Environment['WHATSAPP_TEMPLATE_LANGUAGE'];
    to: string;
    apiUrl: string;
    /** Notices of new leads sent per day (Mérida); the rest fail with the reason, the lead kept. */
    dailyLimit: number;
  } | null;
  /** Seconds before each retry; after the last one a delivery is `failed`. */
  retryDelays: Environment['NOTIFY_RETRY_DELAYS'];
  /** A delivery claimed (or a job locked) this long ago by a worker that died is taken up again. */
  lockTimeoutSeconds: Environment['NOTIFY_LOCK_TIMEOUT_SECONDS'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseConfig(environment: Record<string, string | undefined>): ServerConfig {
  const result = environmentSchema.safeParse(environment);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join('; ')}`);
  }
  const env = result.data;
  const production = env.NODE_ENV === 'production' || env.NETLIFY === 'true' || env.SITE_ID !== undefined;
  if (production && !env.DATABASE_URL) {
    throw new ConfigError('Invalid environment: DATABASE_URL is not set; production needs its PostgreSQL (e.g. Neon).');
  }
  return {
    // Netlify's own URL of the site (platform-set, never from a request) when SITE_URL is missing there.
    siteUrl: env.SITE_URL ?? (env.SITE_ID ? env.URL : undefined),
    voiceWebhookSecret: env.VAPI_WEBHOOK_SECRET,
    launchCheck: env.LAUNCH_CHECK,
    notifications: notificationConfig(env),
    whatsapp: whatsappConfig(env),
    push: pushConfig(env),
    payments: paymentsConfig(env, production),
    conversions: conversionsConfig(env, production),
    databaseUrl: env.DATABASE_URL,
    databaseDriver: env.DATABASE_DRIVER ?? (runsOnNeon(env.DATABASE_URL, env.NETLIFY) ? 'neon' : 'pg'),
    databasePoolMax: env.DATABASE_POOL_MAX,
    databaseConnectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    neonWsProxy: env.NEON_WS_PROXY,
    leadRateLimit: env.LEAD_RATE_LIMIT,
    platformRateLimit: env.PLATFORM_RATE_LIMIT === '1',
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    pgPort: env.PG_PORT || undefined,
    jwtSecret: env.JWT_SECRET,
    production,
    trustProxy: env.TRUST_PROXY,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    exitWithParent: env.EXIT_WITH_PARENT === '1',
  };
}

/**
 * Each channel is on when its variables are set, all of them: a channel half
 * configured is a mistake that would lose notifications silently, so it stops
 * the start with the names of the missing variables.
 */
function notificationConfig(env: Environment): NotificationConfig {
  const channel = <T>(name: string, values: Record<string, string | undefined>, build: () => T): T | null =>
    allOrNone(`the ${name} notifications are`, values, build);
  const to = env.NOTIFY_EMAIL_TO.join(',') || undefined;
  return {
    email: channel(
      'e-mail',
      { SMTP_URL: env.SMTP_URL, NOTIFY_EMAIL_FROM: env.NOTIFY_EMAIL_FROM, NOTIFY_EMAIL_TO: to },
      () => ({ smtpUrl: env.SMTP_URL as string, from: env.NOTIFY_EMAIL_FROM as string, to: env.NOTIFY_EMAIL_TO }),
    ),
    webhook: channel(
      'webhook',
      { NOTIFY_WEBHOOK_URL: env.NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_SECRET: env.NOTIFY_WEBHOOK_SECRET },
      () => ({ url: env.NOTIFY_WEBHOOK_URL as string, secret: env.NOTIFY_WEBHOOK_SECRET as string }),
    ),
    // Token and number alone serve the conversations (whatsappConfig): the channel is on with its template or number.
    whatsapp: channel(
      'WhatsApp',
      env.WHATSAPP_TEMPLATE === undefined && env.WHATSAPP_TO === undefined
        ? { WHATSAPP_TEMPLATE: undefined, WHATSAPP_TO: undefined }
        : {
            WHATSAPP_TOKEN: env.WHATSAPP_TOKEN,
            WHATSAPP_PHONE_NUMBER_ID: env.WHATSAPP_PHONE_NUMBER_ID,
            WHATSAPP_TEMPLATE: env.WHATSAPP_TEMPLATE,
            WHATSAPP_TO: env.WHATSAPP_TO,
          },
      () => ({
        token: env.WHATSAPP_TOKEN as string,
        phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID as string,
        template: env.WHATSAPP_TEMPLATE as string,
        language: env.WHATSAPP_TEMPLATE_LANGUAGE,
        to: env.WHATSAPP_TO as string,
        apiUrl: env.WHATSAPP_API_URL.replace(/\/+$/, ''),
        dailyLimit: env.WHATSAPP_NOTIFY_DAILY_LIMIT,
      }),
    ),
    retryDelays: env.NOTIFY_RETRY_DELAYS,
    lockTimeoutSeconds: env.NOTIFY_LOCK_TIMEOUT_SECONDS,
  };
}

/**
 * The conversations are on when the token, the number and the webhook's two
 * secrets are set; some of them only stops the start, naming the others.
 */
function whatsappConfig(env: Environment): WhatsappConfig | null {
  const values = variables(
    env,
    'WHATSAPP_TOKEN',
    'WHATSAPP_PHONE_NUMBER_ID',
    'WHATSAPP_APP_SECRET',
    'WHATSAPP_VERIFY_TOKEN',
  );
  // Token and number without either secret are the notification channel's alone.
  if (!env.WHATSAPP_APP_SECRET && !env.WHATSAPP_VERIFY_TOKEN) {
    if (env.WHATSAPP_FIRST_REPLY_TEMPLATE) {
      throw new ConfigError(
        'Invalid environment: WHATSAPP_FIRST_REPLY_TEMPLATE needs the conversations on; also set WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN (and WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID).',
      );
    }
    return null;
  }
  allOrNone(
    'the WhatsApp conversations are',
    values,
    () => true,
    'or unset WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN',
  );
  const firstReply = env.WHATSAPP_FIRST_REPLY_TEMPLATE;
  if (firstReply && !findTemplate(firstReply)) {
    throw new ConfigError(
      `Invalid environment: WHATSAPP_FIRST_REPLY_TEMPLATE "${firstReply}" is not in src/lib/whatsapp/templates.ts (add it there with its approved text).`,
    );
  }
  // An appointment's template needs an appointment ({cita}, {fecha}...): a lead has only a name (decision 0060).
  const chosen = firstReply ? findTemplate(firstReply) : undefined;
  if (chosen && templateVariables(chosen.body).some((variable) => variable !== 'nombre')) {
    throw new ConfigError(
      `Invalid environment: WHATSAPP_FIRST_REPLY_TEMPLATE "${firstReply}" is an appointment's template; choose one whose only variable is {nombre}.`,
    );
  }
  const apiUrl = env.WHATSAPP_API_URL.replace(/\/+$/, '');
  return {
    token: env.WHATSAPP_TOKEN as string,
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID as string,
    apiUrl,
    appSecret: env.WHATSAPP_APP_SECRET as string,
    verifyToken: env.WHATSAPP_VERIFY_TOKEN as string,
    mediaHosts: [...new Set([new URL(apiUrl).host.toLowerCase(), ...env.WHATSAPP_MEDIA_HOSTS])],
    firstReplyTemplate: env.WHATSAPP_FIRST_REPLY_TEMPLATE ?? null,
    firstReplyDailyLimit: env.WHATSAPP_FIRST_REPLY_DAILY_LIMIT,
    appointmentDailyLimit: env.WHATSAPP_APPOINTMENT_DAILY_LIMIT,
  };
}

/** Web Push is on when its three variables are set; some of them only is a mistake that stops the start. */
function pushConfig(env: Environment): PushConfig | null {
  const values = variables(env, 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT');
  if (env.PUSH_TEST_SERVICE_URL && (env.NODE_ENV !== 'test' || env.NETLIFY === 'true' || env.SITE_ID)) {
    throw new ConfigError(
      'Invalid environment: PUSH_TEST_SERVICE_URL is for the test suite only (NODE_ENV=test, not on Netlify); unset it.',
    );
  }
  return allOrNone('Web Push is', values, () => ({
    publicKey: env.VAPID_PUBLIC_KEY as string,
    privateKey: env.VAPID_PRIVATE_KEY as string,
    subject: env.VAPID_SUBJECT as string,
    testService: env.PUSH_TEST_SERVICE_URL ? new URL(env.PUSH_TEST_SERVICE_URL).origin : null,
  }));
}

/**
 * Stripe is on when its key and its webhook's secret are set (one without the
 * other stops the start). Production refuses a test-mode key: its payments
 * would be make-believe while the site says they are real.
 */
function paymentsConfig(env: Environment, production: boolean): PaymentsConfig | null {
  if (env.STRIPE_API_BASE && (env.NODE_ENV !== 'test' || production)) {
    throw new ConfigError(
      'Invalid environment: STRIPE_API_BASE is for the test suite only (NODE_ENV=test, not on Netlify); unset it.',
    );
  }
  const live = /^(sk|rk)_live_/.test(env.STRIPE_SECRET_KEY ?? '');
  if (production && env.STRIPE_SECRET_KEY && !live) {
    throw new ConfigError(
      'Invalid environment: STRIPE_SECRET_KEY is a test-mode key; production takes the live one (sk_live_… or rk_live_…).',
    );
  }
  return allOrNone('Online payments are', variables(env, 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'), () => ({
    secretKey: env.STRIPE_SECRET_KEY as string,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET as string,
    live,
    apiBase: env.STRIPE_API_BASE ?? null,
  }));
}

/**
 * Each ad platform is told of conversions once its variables are all set
 * (some of them only stops the start). AD_PLATFORMS_TEST_BASE points both at
 * the test suite's fakes; elsewhere it is refused.
 */
function conversionsConfig(env: Environment, production: boolean): ConversionsConfig {
  const fake = env.AD_PLATFORMS_TEST_BASE;
  if (fake && (env.NODE_ENV !== 'test' || production)) {
    throw new ConfigError(
      'Invalid environment: AD_PLATFORMS_TEST_BASE is for the test suite only (NODE_ENV=test, not on Netlify); unset it.',
    );
  }
  return {
    meta: allOrNone('Meta conversions are', variables(env, 'META_DATASET_ID', 'META_ACCESS_TOKEN'), () => ({
      datasetId: env.META_DATASET_ID as string,
      accessToken: env.META_ACCESS_TOKEN as string,
      apiBase: fake ? `${fake}/meta` : 'https://graph.facebook.com',
    })),
    google: allOrNone(
      'Google conversions are',
      variables(
        env,
        'GOOGLE_ADS_CUSTOMER_ID',
        'GOOGLE_ADS_CONVERSION_ACTIONS',
        'GOOGLE_OAUTH_CLIENT_ID',
        'GOOGLE_OAUTH_CLIENT_SECRET',
        'GOOGLE_OAUTH_REFRESH_TOKEN',
      ),
      () => ({
        customerId: env.GOOGLE_ADS_CUSTOMER_ID as string,
        actions: Object.fromEntries(
          (env.GOOGLE_ADS_CONVERSION_ACTIONS as string).split(',').map((pair) => pair.split(':') as [string, string]),
        ),
        clientId: env.GOOGLE_OAUTH_CLIENT_ID as string,
        clientSecret: env.GOOGLE_OAUTH_CLIENT_SECRET as string,
        refreshToken: env.GOOGLE_OAUTH_REFRESH_TOKEN as string,
        apiBase: fake ? `${fake}/google` : 'https://datamanager.googleapis.com',
        tokenUrl: fake ? `${fake}/google/token` : 'https://oauth2.googleapis.com/token',
      }),
    ),
  };
}

/** The named text variables' values, by name, in the order named (allOrNone's `values`). */
type TextVariable = {
  [K in keyof Environment]-?: Environment[K] extends string | undefined ? K : never;
}[keyof Environment];
function variables(env: Environment, ...names: TextVariable[]): Record<string, string | undefined> {
  return Object.fromEntries(names.map((name) => [name, env[name]]));
}

/**
 * A group of variables that work together (a channel, the conversations, Web
 * Push): off (null) when none is set, `build()` when all are; some of them
 * only is a mistake that would fail silently, so it stops the start naming
 * the ones missing.
 */
function allOrNone<T>(
  group: string,
  values: Record<string, string | undefined>,
  build: () => T,
  otherwise = 'or unset them all',
): T | null {
  const missing = Object.keys(values).filter((key) => !values[key]);
  if (missing.length === Object.keys(values).length) return null;
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid environment: ${group} half configured; also set ${missing.join(', ')} (${otherwise}).`,
    );
  }
  return build();
}

/** Netlify functions talk to Neon over WebSockets; everything else over TCP. */
function runsOnNeon(databaseUrl: string | undefined, netlify: string | undefined): boolean {
  if (netlify === 'true') return true;
  return databaseUrl ? new URL(databaseUrl).hostname.endsWith('.neon.tech') : false;
}

let cached: ServerConfig | undefined;

/**
 * The configuration of this process, read on first use. The only place,
 * with readConfig, that reads `process.env`: every variable is checked here.
 */
export function getConfig(): ServerConfig {
  cached ??= readConfig();
  return cached;
}

/**
 * The environment as it is now, checked but not kept: for the local server,
 * which needs PORT, HOST, DATA_DIR and PG_PORT before it knows its database
 * (it sets DATABASE_URL to the embedded one, then calls getConfig).
 */
export function readConfig(): ServerConfig {
  return parseConfig(process.env);
}

/** The database URL, or a clear error when it is missing. */
export function requireDatabaseUrl(config: ServerConfig = getConfig()): string {
  if (!config.databaseUrl) {
    throw new ConfigError('DATABASE_URL is not set: point it at PostgreSQL, or start the site with `npm start`.');
  }
  return config.databaseUrl;
}

let localSiteUrl: string | undefined;

/**
 * The local server's own address once it listens (PORT=0 picks a port only
 * then): the default of publicSiteUrl() when SITE_URL is unset.
 */
export function setLocalSiteUrl(url: string): void {
  localSiteUrl = url.replace(/\/+$/, '');
}

/**
 * The public address of the site, without a trailing slash: every link we
 * send (password reset, invitation, notifications, the daily summary) starts
 * with it, never with a request's `Host` or `X-Forwarded-Host`, which an
 * attacker writes. SITE_URL; in development the local server's own address
 * (HOST and PORT); production without SITE_URL is refused here, and the
 * local server refuses to start without it.
 */
export function publicSiteUrl(config: ServerConfig = getConfig()): string {
  if (config.siteUrl) return config.siteUrl.replace(/\/+$/, '');
  if (config.production) {
    throw new ConfigError(
      'SITE_URL is not set: production builds the links it e-mails (password reset, invitations, notifications) from it.',
    );
  }
  if (localSiteUrl) return localSiteUrl;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}
