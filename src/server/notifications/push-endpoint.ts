/**
 * Where a member's device may receive its reminders (issue #38, item 4;
 * decision 0052): a Web Push subscription's endpoint is a URL the browser
 * got from its vendor's push service, and the reminder worker POSTs to it.
 * Only those services' https URLs are accepted, never an address a member
 * typed (127.0.0.1, [::1], 2130706433, the site's own admin URLs, a private
 * network's host...): the worker would connect there on our behalf (blind
 * SSRF). A list of names, not a check of addresses: none of these names is
 * an attacker's to point elsewhere, and no lookup can be raced (DNS rebinding).
 */

/** The push services of the browsers that show the panel's reminders, by the host of their endpoints. */
export const PUSH_SERVICES: readonly { host: string; subdomains: boolean; browsers: string }[] = [
  { host: 'fcm.googleapis.com', subdomains: false, browsers: 'Chrome, Opera, Samsung Internet, Brave (FCM)' },
  { host: 'updates.push.services.mozilla.com', subdomains: false, browsers: 'Firefox (Mozilla autopush)' },
  { host: 'notify.windows.com', subdomains: true, browsers: 'Edge (WNS: wns2-*.notify.windows.com)' },
  { host: 'web.push.apple.com', subdomains: false, browsers: 'Safari on macOS 13+, iOS and iPadOS 16.4+' },
  { host: 'push.apple.com', subdomains: true, browsers: "Safari (Apple's other push hosts)" },
];

/** The 400 of an endpoint that is not a known push service's. */
export const PUSH_SERVICE_UNKNOWN =
  'Este navegador usa un servicio de avisos que no reconocemos. Activa los avisos desde Chrome, Edge, Firefox o Safari.';

/**
 * Whether the reminder worker may POST to `endpoint`: https on the default
 * port, no user or password, and a host of PUSH_SERVICES (the host itself, or
 * a subdomain where the service has many). `testService` is the origin of the
 * test suite's fake push service (PushConfig.testService, honoured only under
 * NODE_ENV=test): that exact origin is accepted too.
 */
export function isPushServiceEndpoint(endpoint: string, testService: string | null = null): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  if (testService !== null && url.origin === testService) return true;
  if (url.port !== '') return false;
  const host = url.hostname;
  return PUSH_SERVICES.some(
    (service) => host === service.host || (service.subdomains && host.endsWith(`.${service.host}`)),
  );
}
