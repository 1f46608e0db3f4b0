import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FastResponse, type ServerMiddleware, serve } from 'srvx';
import { staticMiddleware } from 'srvx/static';
import { migrate, pendingMigrations } from '../../../db/migrate.ts';
import { pagePath } from '../../lib/page-path.ts';
import { sessionSecret } from '../auth/secret.ts';
import {
  ConfigError,
  getConfig,
  publicSiteUrl,
  readConfig,
  requireDatabaseUrl,
  type ServerConfig,
  setLocalSiteUrl,
} from '../config.ts';
import { closeDatabase } from '../db/database.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../db/embedded.ts';
import { clientAddress } from '../http/client-address.ts';
import {
  BUILD_HEADERS_FILE,
  HEADER_RULES,
  HTML_CACHE_CONTROL,
  PAGE_OPENER_POLICY,
  parseBuildHeaders,
  staticHeadersFor,
} from '../http/headers.ts';
import { logJson } from '../log.ts';
import { closeEmailTransports, verifyEmail } from '../notifications/channels/email.ts';
import { startJobWorker } from '../tasks.ts';
import { settleAccountEmails } from '../team/account-mail.ts';
import { findRoute, loadFunctionRoutes } from './functions.ts';
import { checkLaunchAtStart } from './launch.ts';
import { onParentExit } from './lifetime.ts';
import { dataDirectory, PROJECT_ROOT } from './paths.ts';

const PLATFORM_FILES = new Set(['/_headers', '/_redirects']);

// On this server every `new Response(...)` of the functions is srvx's FastResponse: still a Response
// (instanceof, headers, body), but written to the socket as it was given instead of through a web
// stream (issue #25: measured in bench:api's CPU per lead). srvx patches Request the same way.
globalThis.Response = FastResponse;

export interface LocalServerOptions {
  port: number;
  host: string;
  distDir: string;
}

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the built site and the Netlify functions on one port, with the
 * production headers. Without DATABASE_URL it starts the embedded PostgreSQL
 * and applies the migrations first.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  // Not kept: getConfig() reads the environment once DATABASE_URL is known (the embedded one when unset).
  const environment = readConfig();
  let embedded: EmbeddedDatabase | undefined;
  if (!environment.databaseUrl) {
    const { pgPort: port } = environment;
    embedded = await startEmbeddedPostgres({
      dataDir: dataDirectory(environment),
      supervise: true,
      ...(port ? { port } : {}),
    });
    await migrate(embedded.url);
    process.env.DATABASE_URL = embedded.url;
  }
  const config = getConfig(); // read and checked once, now that DATABASE_URL is known
  sessionSecret(); // production without JWT_SECRET stops here, naming it
  publicSiteUrl(config); // and without SITE_URL, which every link we e-mail starts with
  checkLaunchAtStart(config); // and with a launch placeholder left in the site's data (decision 0033)
  if (!embedded) await requireMigrated(requireDatabaseUrl(config));
  checkEmailChannel(config);

  const routes = await loadFunctionRoutes();
  const buildHeaders = path.join(PROJECT_ROOT, BUILD_HEADERS_FILE);
  const headerRules = [
    ...HEADER_RULES,
    ...(existsSync(buildHeaders) ? parseBuildHeaders(await readFile(buildHeaders, 'utf8')) : []),
  ];
  const notFoundPage = path.join(options.distDir, '404.html');
  const notFound = async () => {
    const page = existsSync(notFoundPage) ? await readFile(notFoundPage) : 'Not found';
    return new Response(page, { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  };

  // Functions log their own JSON line (they come first); this logs the rest: pages, assets, 404s.
  const logRequests: ServerMiddleware = async (request, next) => {
    const started = performance.now();
    const response = await next();
    const { pathname } = new URL(request.url);
    const duration = (performance.now() - started).toFixed(1);
    process.stdout.write(`${request.method} ${pathname} ${response.status} ${duration}ms\n`);
    return response;
  };

  const { trustProxy } = getConfig();
  let warnedAboutProxy = false;
  const functions: ServerMiddleware = (request, next) => {
    const route = findRoute(routes, request.url);
    if (!route) return next();
    const peer = request.runtime?.node?.req.socket.remoteAddress;
    const forwardedFor = request.headers.get('x-forwarded-for');
    const forwarded =
      forwardedFor ?? request.headers.get('x-forwarded-proto') ?? request.headers.get('x-forwarded-host');
    if (forwarded && trustProxy === false && !warnedAboutProxy && /^(::1|(::ffff:)?127\.)/.test(peer ?? '')) {
      // A proxy on this machine that we do not trust: every visitor looks like it (one rate-limit bucket).
      warnedAboutProxy = true;
      logJson('warn', {
        event: 'forwarded_headers_ignored',
        hint: 'A proxy on this machine sends X-Forwarded-* headers; set TRUST_PROXY=loopback to use them (README).',
      });
    }
    const ip = clientAddress(peer, forwardedFor, trustProxy);
    return route.limit(ip) ?? route.handler(request, { ip }); // limit: its config.rateLimit, as on Netlify
  };

  // Netlify reads these files and never serves them, however the path is encoded
  // (the static server decodes %5f as _): compare the decoded path.
  const platformFiles: ServerMiddleware = (request, next) => {
    const decoded = decodedPath(new URL(request.url).pathname);
    return decoded === null || PLATFORM_FILES.has(decoded) ? notFound() : next();
  };

  // Headers are set on the response itself: wrapping its body in a new Response
  // breaks when a visitor disconnects mid-download (the stream is closed twice).
  const staticHeaders: ServerMiddleware = async (request, next) => {
    const response = await next();
    // An unknown path gets the 404 page, and that page's headers.
    const pathname = response.status === 404 ? '/404' : pagePath(new URL(request.url));
    for (const [name, value] of Object.entries(staticHeadersFor(pathname, headerRules))) {
      response.headers.set(name, value);
    }
    if (response.headers.get('content-type')?.startsWith('text/html')) {
      response.headers.set('Cache-Control', HTML_CACHE_CONTROL);
      // A page's opener policy, as its own rule gives it on Netlify (pageRules); /editor's rule sets its own.
      for (const [name, value] of Object.entries(PAGE_OPENER_POLICY))
        if (!response.headers.has(name)) response.headers.set(name, value);
    }
    return response;
  };

  const server = serve({
    port: options.port,
    hostname: options.host,
    silent: true,
    gracefulShutdown: false,
    // Behind a trusted reverse proxy (TRUST_PROXY), X-Forwarded-Proto/Host give the
    // public URL: Secure cookies and the same-origin check then see https://<site>.
    trustProxy: trustProxy === false ? false : trustProxy === 'loopback' ? 'loopback' : [...trustProxy],
    middleware: [
      functions,
      logRequests,
      staticHeaders,
      platformFiles,
      staticMiddleware({ dir: options.distDir, encodings: true }),
    ],
    fetch: notFound,
  });
  await server.ready();
  // An idle kept-alive connection is closed after 65 s, not Node's 5: a client (a browser, a proxy such as
  // a load balancer at 60 s) reusing it at the moment the server closes it gets a reset instead of an answer.
  const node = server.node?.server;
  if (node && 'keepAliveTimeout' in node) {
    node.keepAliveTimeout = 65_000;
    node.headersTimeout = 66_000;
  }
  // Without SITE_URL, the links we send point to this server as it listens (PORT=0 picks the port only now);
  // the worker starts after, so no notification is sent with a link to port 0.
  if (!config.siteUrl && server.url)
    setLocalSiteUrl(publicSiteUrl({ ...config, port: Number(new URL(server.url).port) }));
  const worker = await startJobWorker(config);

  // Draining: every answer says `Connection: close`, so keep-alive clients move on
  // instead of holding the server open; after the grace period the rest are cut.
  let draining = false;
  server.node?.server?.prependListener('request', (_request, response) => {
    // Decided when the answer is written, so requests already in flight when draining starts close too.
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => typeof response;
    response.writeHead = ((...args: unknown[]) => {
      if (draining && !response.headersSent) response.setHeader('Connection', 'close');
      return writeHead(...args);
    }) as typeof response.writeHead;
  });

  return {
    url: server.url ?? `http://${options.host}:${options.port}/`,
    async close() {
      draining = true;
      const grace = setTimeout(() => {
        const node = server.node?.server;
        if (node && 'closeAllConnections' in node) node.closeAllConnections();
      }, getConfig().shutdownGraceMs);
      try {
        await server.close();
      } finally {
        clearTimeout(grace);
      }
      await settleAccountEmails(); // a reset or invitation e-mail on its first try is sent or queued
      await worker?.stop();
      closeEmailTransports();
      await closeDatabase();
      await embedded?.stop();
    },
  };
}

/** An SMTP server that cannot be reached or refuses our login is reported at start (the rest keeps working). */
function checkEmailChannel(config: ServerConfig): void {
  const email = config.notifications.email;
  if (!email) return;
  verifyEmail(email).then(
    () => logJson('info', { event: 'notify_email_ready' }),
    (error: unknown) =>
      logJson('error', {
        event: 'notify_email_unreachable',
        error: `SMTP_URL: ${(error as Error).message}`,
        hint: 'Las notificaciones por correo se reintentarán; revisa SMTP_URL (README, Notificaciones).',
      }),
  );
}

/** A database without every migration would answer 503 to every lead: refuse to start instead. */
async function requireMigrated(databaseUrl: string): Promise<void> {
  const pending = await pendingMigrations(databaseUrl);
  if (pending.length > 0) {
    throw new ConfigError(
      `The database at DATABASE_URL is missing ${pending.length} migration(s) (${pending.join(', ')}): run \`npm run db:migrate\` first.`,
    );
  }
}

/**
 * The path as the static server will read it (decoded, repeated slashes and
 * dot segments resolved: `//_headers` and `/x/../_headers` are `/_headers`),
 * or null when it cannot be decoded.
 */
function decodedPath(pathname: string): string | null {
  try {
    return path.posix.normalize(`/${decodeURIComponent(pathname).replaceAll('\\', '/')}`).replace(/\/+/g, '/');
  } catch {
    return null;
  }
}

/** Stops cleanly on SIGINT/SIGTERM: requests in flight finish before PostgreSQL stops. */
function stopOnSignals(server: LocalServer, parent: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing…`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (getConfig().exitWithParent) onParentExit(() => stop('SIGTERM'), parent);
}

/**
 * An error no request caught (a library's event, a promise nobody awaited) is
 * logged and the server keeps serving: every lead, session and notification
 * lives in PostgreSQL, written in transactions, so nothing in this process is
 * left half-done that a restart would repair; exiting would cut every request
 * in flight, and nobody restarts `npm start` (decision 0024).
 */
function keepServingOnStrayErrors(): void {
  // A log pipe whose reader is gone (the parent that started us died, a log collector restarted) fails
  // every write with EPIPE: swallowed here, or each failed log line would be an uncaught error whose
  // log line fails again, on every tick, for ever (a spinning process that no signal reaches).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  process.on('unhandledRejection', (reason) => {
    logJson('error', {
      event: 'unhandled_rejection',
      error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason),
    });
  });
  process.on('uncaughtException', (error) => {
    logJson('error', { event: 'uncaught_exception', error: error.stack ?? error.message });
  });
}

/** Runs the server from the environment (PORT, HOST) until a signal stops it. */
export async function main(): Promise<void> {
  const parent = process.ppid; // before start-up, which can take seconds (initdb, migrations)
  keepServingOnStrayErrors();
  try {
    const { port, host } = readConfig();
    const server = await startLocalServer({ port, host, distDir: path.join(PROJECT_ROOT, 'dist') });
    stopOnSignals(server, parent);
    console.log(`Listening on ${server.url}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

if (import.meta.main) await main();
