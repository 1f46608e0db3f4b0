import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, publicSiteUrl, requireDatabaseUrl } from './config.ts';

describe('parseConfig', () => {
  it('has sensible defaults', () => {
    expect(parseConfig({})).toEqual({
      databaseUrl: undefined,
      databaseDriver: 'pg',
      databasePoolMax: 10,
      databaseConnectTimeoutMs: 5000,
      neonWsProxy: undefined,
      leadRateLimit: 20,
      platformRateLimit: true,
      port: 4321,
      host: '127.0.0.1',
      dataDir: '.data',
      pgPort: undefined,
      jwtSecret: undefined,
      production: false,
      trustProxy: false,
      shutdownGraceMs: 10_000,
      exitWithParent: false,
      siteUrl: undefined,
      notifications: {
        email: null,
        webhook: null,
        whatsapp: null,
        retryDelays: [60, 300, 1800, 7200, 43_200],
        lockTimeoutSeconds: 120,
      },
      push: null,
      payments: null,
      conversions: { meta: null, google: null },
      whatsapp: null,
    });
  });

  it('turns Web Push on only with its three VAPID variables, checked', () => {
    const keys = {
      VAPID_PUBLIC_KEY: `B${'A'.repeat(86)}`,
      VAPID_PRIVATE_KEY: 'a'.repeat(43),
      VAPID_SUBJECT: 'mailto:avisos@example.mx',
    };
    expect(parseConfig(keys).push).toEqual({
      publicKey: keys.VAPID_PUBLIC_KEY,
      privateKey: keys.VAPID_PRIVATE_KEY,
      subject: 'mailto:avisos@example.mx',
      testService: null,
    });
    expect(() => parseConfig({ ...keys, VAPID_SUBJECT: undefined })).toThrow(
      'Web Push is half configured; also set VAPID_SUBJECT (or unset them all)',
    );
    expect(() => parseConfig({ ...keys, VAPID_PRIVATE_KEY: 'corta' })).toThrow(
      'VAPID_PRIVATE_KEY: must be the URL-safe',
    );
    expect(() => parseConfig({ ...keys, VAPID_SUBJECT: 'avisos@example.mx' })).toThrow(
      'VAPID_SUBJECT: must be a mailto:',
    );
    expect(parseConfig({ VAPID_PUBLIC_KEY: ' ', VAPID_SUBJECT: '' }).push).toBeNull();
  });

  it('honours the fake push service of the tests only under NODE_ENV=test, and refuses to start elsewhere', () => {
    const keys = {
      VAPID_PUBLIC_KEY: `B${'A'.repeat(86)}`,
      VAPID_PRIVATE_KEY: 'a'.repeat(43),
      VAPID_SUBJECT: 'mailto:avisos@example.mx',
      PUSH_TEST_SERVICE_URL: 'https://127.0.0.1:4728/',
    };
    expect(parseConfig({ ...keys, NODE_ENV: 'test' }).push?.testService).toBe('https://127.0.0.1:4728');
    for (const environment of [
      { NODE_ENV: 'development' },
      { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db.example/app' },
      { NODE_ENV: 'test', NETLIFY: 'true', DATABASE_URL: 'postgres://u:p@db.example/app' },
      { NODE_ENV: 'test', SITE_ID: 'site', DATABASE_URL: 'postgres://u:p@db.example/app' },
      {},
    ]) {
      expect(() => parseConfig({ ...keys, ...environment })).toThrow(
        'PUSH_TEST_SERVICE_URL is for the test suite only',
      );
    }
  });

  it('turns online payments on with the Stripe key and the webhook secret, both or none; production refuses a test key', () => {
    const keys = { STRIPE_SECRET_KEY: 'sk_test_abcdefgh12345678', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh12345678' };
    expect(parseConfig(keys).payments).toEqual({
      secretKey: keys.STRIPE_SECRET_KEY,
      webhookSecret: keys.STRIPE_WEBHOOK_SECRET,
      live: false,
      apiBase: null,
    });
    expect(() => parseConfig({ STRIPE_SECRET_KEY: keys.STRIPE_SECRET_KEY })).toThrow(
      'Online payments are half configured; also set STRIPE_WEBHOOK_SECRET',
    );
    expect(() => parseConfig({ STRIPE_SECRET_KEY: 'pk_live_abcdefgh12345678' })).toThrow('STRIPE_SECRET_KEY');
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db.example/app' };
    expect(() => parseConfig({ ...keys, ...production })).toThrow(
      'STRIPE_SECRET_KEY is a test-mode key; production takes the live one',
    );
    const live = { ...keys, STRIPE_SECRET_KEY: 'rk_live_abcdefgh12345678' };
    expect(parseConfig({ ...live, ...production }).payments?.live).toBe(true);
    expect(() => parseConfig({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:4731' })).toThrow(
      'STRIPE_API_BASE is for the test suite only',
    );
    expect(parseConfig({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:4731', NODE_ENV: 'test' }).payments?.apiBase).toBe(
      'http://127.0.0.1:4731',
    );
  });

  it('turns a notification channel on only with all its variables, and names what is missing', () => {
    const email = { SMTP_URL: 'smtps://u:p@smtp.example.mx:465', NOTIFY_EMAIL_FROM: 'avisos@example.mx' };
    expect(() => parseConfig(email)).toThrow(
      'the e-mail notifications are half configured; also set NOTIFY_EMAIL_TO (or unset them all)',
    );
    expect(parseConfig({ ...email, NOTIFY_EMAIL_TO: 'a@example.mx, b@example.mx' }).notifications.email).toEqual({
      smtpUrl: 'smtps://u:p@smtp.example.mx:465',
      from: 'avisos@example.mx',
      to: ['a@example.mx', 'b@example.mx'],
    });
    // A blank line in .env is the same as no line.
    expect(parseConfig({ SMTP_URL: ' ', NOTIFY_EMAIL_TO: '' }).notifications.email).toBeNull();
    expect(() => parseConfig({ ...email, NOTIFY_EMAIL_TO: 'ventas' })).toThrow('not an e-mail address: ventas');
    expect(() => parseConfig({ SMTP_URL: 'http://smtp.example.mx' })).toThrow('SMTP_URL: must be an smtp://');
    expect(() =>
      parseConfig({ NOTIFY_WEBHOOK_URL: 'https://n8n.example.mx/x', NOTIFY_WEBHOOK_SECRET: 'corto' }),
    ).toThrow('NOTIFY_WEBHOOK_SECRET: must be at least 16 bytes');
    expect(() => parseConfig({ WHATSAPP_TO: '+52 999 123 4567' })).toThrow('WHATSAPP_TO: must be digits');
    // fetch refuses URLs with credentials, and its error would put the password in the panel.
    expect(() => parseConfig({ NOTIFY_WEBHOOK_URL: 'https://n8n:secreto@n8n.example.mx/x' })).toThrow(
      'NOTIFY_WEBHOOK_URL: must not contain a user or password',
    );
    expect(() => parseConfig({ WHATSAPP_API_URL: 'https://u:p@graph.facebook.com/v23.0' })).toThrow('WHATSAPP_API_URL');
    expect(() => parseConfig({ NOTIFY_RETRY_DELAYS: '60,-1' })).toThrow('NOTIFY_RETRY_DELAYS');
    expect(parseConfig({ NOTIFY_RETRY_DELAYS: '1, 2,3' }).notifications.retryDelays).toEqual([1, 2, 3]);
  });

  it('picks the Neon driver on Netlify and for Neon hosts, pg elsewhere', () => {
    expect(parseConfig({ NETLIFY: 'true', DATABASE_URL: 'postgres://u:p@db.example/app' }).databaseDriver).toBe('neon');
    expect(parseConfig({ DATABASE_URL: 'postgresql://u:p@ep-x-123.us-east-2.aws.neon.tech/db' }).databaseDriver).toBe(
      'neon',
    );
    expect(parseConfig({ DATABASE_URL: 'postgres://u:p@db.internal:5432/app' }).databaseDriver).toBe('pg');
    expect(
      parseConfig({ NETLIFY: 'true', DATABASE_URL: 'postgres://u:p@db.example/app', DATABASE_DRIVER: 'pg' })
        .databaseDriver,
    ).toBe('pg');
  });

  it('reads DATABASE_CONNECT_TIMEOUT_MS in milliseconds, from half a second to a minute', () => {
    expect(parseConfig({ DATABASE_CONNECT_TIMEOUT_MS: '30000' }).databaseConnectTimeoutMs).toBe(30_000);
    expect(() => parseConfig({ DATABASE_CONNECT_TIMEOUT_MS: '100' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
    expect(() => parseConfig({ DATABASE_CONNECT_TIMEOUT_MS: 'cinco' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  });

  it('reads LEAD_RATE_LIMIT, where 0 turns the limit off', () => {
    expect(parseConfig({ LEAD_RATE_LIMIT: '0' }).leadRateLimit).toBe(0);
    expect(parseConfig({ LEAD_RATE_LIMIT: '5' }).leadRateLimit).toBe(5);
  });

  it("reads PLATFORM_RATE_LIMIT: the functions' own limits are on unless it is 0", () => {
    expect(parseConfig({ PLATFORM_RATE_LIMIT: '0' }).platformRateLimit).toBe(false);
    expect(parseConfig({ PLATFORM_RATE_LIMIT: '1' }).platformRateLimit).toBe(true);
    expect(() => parseConfig({ PLATFORM_RATE_LIMIT: 'no' })).toThrow(ConfigError);
  });

  it('reads DATA_DIR and PG_PORT of the local server, where blank is unset and PG_PORT 0 is a free port', () => {
    expect(parseConfig({ DATA_DIR: '.data/e2e', PG_PORT: '54329' })).toMatchObject({
      dataDir: '.data/e2e',
      pgPort: 54_329,
    });
    expect(parseConfig({ DATA_DIR: ' ', PG_PORT: '' })).toMatchObject({ dataDir: '.data', pgPort: undefined });
    expect(parseConfig({ PG_PORT: '0' }).pgPort).toBeUndefined();
  });

  it('refuses a PG_PORT that is not a TCP port, saying what it must be', () => {
    for (const value of ['postgres', '5432.5', '-1', '65536']) {
      expect(() => parseConfig({ PG_PORT: value })).toThrow(
        new ConfigError('Invalid environment: PG_PORT: must be a TCP port from 1 to 65535 (unset or 0: a free port)'),
      );
    }
  });

  it('names the variable that is wrong', () => {
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ LEAD_RATE_LIMIT: '-1' })).toThrow(/LEAD_RATE_LIMIT/);
    expect(() => parseConfig({ DATABASE_DRIVER: 'sqlite' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'ochenta' })).toThrow(/PORT/);
    expect(() => parseConfig({ JWT_SECRET: 'corto' })).toThrow(/JWT_SECRET: must be at least 32 bytes/);
  });

  it('reads TRUST_PROXY as loopback or a list of addresses, and refuses anything else', () => {
    expect(parseConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(parseConfig({ TRUST_PROXY: '10.0.0.2, ::1' }).trustProxy).toEqual(['10.0.0.2', '::1']);
    expect(() => parseConfig({ TRUST_PROXY: '10.0.0.0/8' })).toThrow(/TRUST_PROXY/);
  });

  it('builds every link from SITE_URL, else from Netlify’s own URL, else the local server; production needs one', () => {
    const db = { DATABASE_URL: 'postgres://u:p@db.example.com/app' };
    expect(publicSiteUrl(parseConfig({ SITE_URL: 'https://www.ceiba.mx/' }))).toBe('https://www.ceiba.mx');
    expect(publicSiteUrl(parseConfig({ HOST: '0.0.0.0', PORT: '8080' }))).toBe('http://localhost:8080');
    // Netlify's functions runtime: SITE_ID and URL are the platform's, set with the site, not by a request.
    const netlify = parseConfig({ ...db, SITE_ID: 'f00', URL: 'https://ceiba.netlify.app' });
    expect(netlify.production).toBe(true);
    expect(publicSiteUrl(netlify)).toBe('https://ceiba.netlify.app');
    expect(
      publicSiteUrl(parseConfig({ ...db, SITE_ID: 'f00', URL: 'https://x.app', SITE_URL: 'https://www.ceiba.mx' })),
    ).toBe('https://www.ceiba.mx');
    expect(() => publicSiteUrl(parseConfig({ ...db, NODE_ENV: 'production' }))).toThrow(/SITE_URL/);
  });

  it('refuses production without DATABASE_URL', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/DATABASE_URL is not set/);
    expect(() => parseConfig({ NETLIFY: 'true' })).toThrow(/DATABASE_URL is not set/);
  });

  it('explains a missing DATABASE_URL', () => {
    expect(() => requireDatabaseUrl(parseConfig({}))).toThrow(/DATABASE_URL is not set/);
  });
});

describe('the local server in production', () => {
  it('refuses to start without JWT_SECRET, naming it', async () => {
    const { spawnServer } = await import('../../tests/support/spawn-server.ts');
    await expect(
      spawnServer({ NODE_ENV: 'production', JWT_SECRET: undefined, DATABASE_URL: process.env.DATABASE_URL }),
    ).rejects.toThrow(/exited with 1:[\s\S]*JWT_SECRET is not set/);
  });
  it('turns the WhatsApp conversations on with the token, the number and the two webhook secrets, all or none', () => {
    const conversations = {
      WHATSAPP_TOKEN: 'EAAG-token',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_APP_SECRET: 'app-secret-0123456789',
      WHATSAPP_VERIFY_TOKEN: 'verificar-ceiba',
    };
    const config = parseConfig({ ...conversations, WHATSAPP_API_URL: 'http://127.0.0.1:9999/v23.0/' });
    expect(config.whatsapp).toEqual({
      token: 'EAAG-token',
      phoneNumberId: '106540352242922',
      apiUrl: 'http://127.0.0.1:9999/v23.0',
      appSecret: 'app-secret-0123456789',
      verifyToken: 'verificar-ceiba',
      mediaHosts: ['127.0.0.1:9999', 'lookaside.fbsbx.com'],
      firstReplyTemplate: null,
      firstReplyDailyLimit: 50,
      appointmentDailyLimit: 150,
    });
    // Token and number serve the conversations without the notification channel's template and number.
    expect(config.notifications.whatsapp).toBeNull();
    expect(() => parseConfig({ ...conversations, WHATSAPP_VERIFY_TOKEN: '' })).toThrow(
      'the WhatsApp conversations are half configured; also set WHATSAPP_VERIFY_TOKEN',
    );
    expect(() => parseConfig({ WHATSAPP_FIRST_REPLY_TEMPLATE: 'primer_contacto' })).toThrow(
      'needs the conversations on',
    );
    expect(() => parseConfig({ ...conversations, WHATSAPP_MEDIA_HOSTS: 'https://evil.example' })).toThrow(
      'WHATSAPP_MEDIA_HOSTS',
    );
    expect(
      parseConfig({ ...conversations, WHATSAPP_FIRST_REPLY_TEMPLATE: 'primer_contacto' }).whatsapp?.firstReplyTemplate,
    ).toBe('primer_contacto');
    // An appointment's template needs an appointment (decision 0060): never a lead's first reply.
    expect(() => parseConfig({ ...conversations, WHATSAPP_FIRST_REPLY_TEMPLATE: 'cita_confirmada' })).toThrow(
      "is an appointment's template",
    );
    // The daily limit of automatic first replies (issue #38): a whole number from 1.
    expect(
      parseConfig({ ...conversations, WHATSAPP_FIRST_REPLY_DAILY_LIMIT: '12' }).whatsapp?.firstReplyDailyLimit,
    ).toBe(12);
    // The appointments' own (decision 0068).
    expect(
      parseConfig({ ...conversations, WHATSAPP_APPOINTMENT_DAILY_LIMIT: '300' }).whatsapp?.appointmentDailyLimit,
    ).toBe(300);
    expect(() => parseConfig({ ...conversations, WHATSAPP_APPOINTMENT_DAILY_LIMIT: '0' })).toThrow(
      'WHATSAPP_APPOINTMENT_DAILY_LIMIT',
    );
    for (const wrong of ['0', '-3', '2.5', 'muchos']) {
      expect(() => parseConfig({ ...conversations, WHATSAPP_FIRST_REPLY_DAILY_LIMIT: wrong }), wrong).toThrow(
        'WHATSAPP_FIRST_REPLY_DAILY_LIMIT',
      );
    }
  });
});
