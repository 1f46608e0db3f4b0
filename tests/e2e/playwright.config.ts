import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, STORIES_CHROMIUM_PATH } from '../support/chromium.ts';
import { STRIPE_KEY, WEBHOOK_SECRET } from '../support/stripe-fake.ts';
import { APP_SECRET, PHONE_NUMBER_ID, TOKEN, VERIFY_TOKEN } from '../support/whatsapp-platform.ts';
import { e2ePorts } from './ports.ts';

/** The e2e server's ports: free ones, found once per run (tests/e2e/ports.ts), so two runs can share a machine. */
const PORTS = e2ePorts();
export const E2E_PORT = PORTS.web;
/**
 * The e2e server notifies a webhook on this port: nothing listens there until
 * the notifications story starts a receiver, so its deliveries fail first.
 */
export const E2E_WEBHOOK = { port: PORTS.webhook, secret: 'e2e-webhook-secret-0123456789' };
/** The secret of the e2e server's /api/voice/events (the calls story posts the platform's reports). */
export const E2E_VOICE_SECRET = 'e2e-voice-secret-0123456789';
/** The fake WhatsApp platform the conversations story starts (tests/support/whatsapp-platform.ts). */
export const E2E_WHATSAPP = { port: PORTS.whatsapp };
/** The fake Stripe the payment story starts (tests/support/stripe-fake.ts); nothing listens there otherwise. */
export const E2E_STRIPE = { port: PORTS.stripe };
/** The embedded PostgreSQL of the e2e server, so tests can look at stored rows. */
export const E2E_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${PORTS.postgres}/app`;

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Four stories at a time on 2 cores: a story waits on the server, PostgreSQL and the browser's paint
  // more than it computes (the whole suite used 1.15 of its 2 cores with two workers, 1.2 with three).
  workers: 4,
  // Bounds for a story that would hang, never a measure of speed: a second `npm test` on the same
  // machine (CI's is shared) makes every step slower, and an assertion passes as soon as it holds.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: '../../test-results/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'es-MX',
    // No trace by default: recording one for every story (to keep it for a failure) cost 18% of the CPU of
    // the same 71 stories, 9% without its screenshots (decision 0066). A failure keeps its screenshot and
    // Playwright's error context (the page's accessibility tree); `--trace on` records traces when needed.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium; Playwright's own browser download is not available here.
      executablePath: STORIES_CHROMIUM_PATH,
      args: [
        ...CHROMIUM_FLAGS,
        // The pages' JavaScript interpreted and baseline-compiled, never optimised: a story's pages live for
        // seconds, and V8's optimising compilers cost more than they gave back (decision 0076: 14% less CPU
        // for the whole browser suite). Not for the benchmarks, which measure a visitor's Chrome.
        '--js-flags=--max-opt=1',
        // The voice widget asks for the microphone: a fake device, allowed without a prompt.
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
      ],
    },
  },
  projects: [
    // Desktop first: its long administrators' stories start while the short ones fill the other workers.
    {
      name: 'desktop',
      testIgnore: /passkeys\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'mobile',
      // The administrators' stories run once, in 'desktop' (the setup's is one per database); they, and the
      // credentials and contacts-work stories (each with a server of its own), open a phone-sized view where they need one.
      testIgnore: /(admin(-[a-z]+)?|passkeys|credentials|contacts-work)\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 390, height: 844 }, isMobile: false, hasTouch: true },
    },
    {
      // Requiring passkeys of administrators is one setting for the whole team: while that story has it on,
      // the other administrators' stories would reach only "Mi cuenta". It runs alone, after all of them.
      name: 'exclusive',
      testMatch: /passkeys\.spec\.ts/,
      dependencies: ['mobile', 'desktop'],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: 'node tests/e2e/fresh-server.ts',
    cwd: '../..',
    url: `http://127.0.0.1:${E2E_PORT}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    // SIGTERM, not Playwright's default SIGKILL: the server drains, and fresh-server's exit hook
    // removes its data directory (a SIGKILL left .data/e2e-<port> behind after every run).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      // Its own data directory, removed when the server stops (tests/e2e/fresh-server.ts).
      DATA_DIR: `.data/e2e-${E2E_PORT}`,
      PG_PORT: String(PORTS.postgres),
      // bcrypt at cost 4 (src/server/auth/passwords.ts): the stories sign in dozens of times.
      NODE_ENV: 'test',
      LEAD_RATE_LIMIT: '0',
      // Every story of both projects comes from this machine: the functions' own rateLimit too.
      PLATFORM_RATE_LIMIT: '0',
      // Never outlives Playwright, however the run ends.
      EXIT_WITH_PARENT: '1',
      NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${E2E_WEBHOOK.port}/avisos`,
      NOTIFY_WEBHOOK_SECRET: E2E_WEBHOOK.secret,
      // One quick retry, then `failed`: the story sees both states in seconds.
      NOTIFY_RETRY_DELAYS: '1',
      VAPI_WEBHOOK_SECRET: E2E_VOICE_SECRET,
      // WhatsApp conversations against the fake platform of the whatsapp story (nothing listens there otherwise).
      WHATSAPP_TOKEN: TOKEN,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      WHATSAPP_API_URL: `http://127.0.0.1:${E2E_WHATSAPP.port}/v23.0`,
      // Online payments against the fake Stripe of the payment story (issue #41).
      STRIPE_SECRET_KEY: STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: `http://127.0.0.1:${E2E_STRIPE.port}`,
    },
  },
});
