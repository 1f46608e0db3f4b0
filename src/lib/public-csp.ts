/**
 * What the public pages allow beyond our own origin, added to their
 * Content-Security-Policy by the layout (the administrator's pages get none of
 * it: their policy allows only our origin).
 */
export const PUBLIC_PAGE_CSP = {
  /** Daily's call library loads its call bundle from its CDN (no eval: avoidEval in VoiceWidget). */
  scriptResources: ['https://c.daily.co'],
  directives: [
    // The voice agent: the platform's API and Daily's call servers (WebRTC signalling over wss).
    "connect-src 'self' https://api.vapi.ai https://*.daily.co wss://*.wss.daily.co https://*.pluot.blue",
    "worker-src 'self' blob:",
    "media-src 'self' blob:",
    // The method video (YouTube's privacy-enhanced player).
    'frame-src https://www.youtube-nocookie.com',
  ],
} as const;
