import { describe, expect, it } from 'vitest';
import { isPushServiceEndpoint } from './push-endpoint.ts';

describe('a Web Push endpoint (decision 0052)', () => {
  it('is the https URL of a browser’s push service', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH',
      'https://fcm.googleapis.com/wp/dGVzdA',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm',
      'https://wns2-bl2p.notify.windows.com/w/?token=BQYAAAD',
      'https://web.push.apple.com/QGuQyavXutnMH3rPRxRkyW',
      'https://api.push.apple.com/3/device/abc',
      'https://FCM.googleapis.com:443/fcm/send/x',
    ]) {
      expect(isPushServiceEndpoint(endpoint), endpoint).toBe(true);
    }
  });

  it('is never an address, another host, port, scheme or a URL with credentials', () => {
    for (const endpoint of [
      'https://127.0.0.1:4728/push/x',
      'https://[::1]/push/x',
      'https://[::ffff:127.0.0.1]/push/x',
      'https://2130706433/push/x',
      'https://0177.0.0.1/push/x',
      'https://10.1.2.3/push/x',
      'https://192.168.0.10/push/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://localhost/push/x',
      'https://www.ceibacasas.mx/admin',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilfcm.googleapis.com/x',
      'https://notify.windows.com.evil.example/x',
      'https://fcm.googleapis.com:8443/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://user:pass@fcm.googleapis.com/fcm/send/x',
      'not a url',
    ]) {
      expect(isPushServiceEndpoint(endpoint), endpoint).toBe(false);
    }
  });

  it('accepts the test suite’s fake service by its exact origin only', () => {
    const fake = 'https://127.0.0.1:4728';
    expect(isPushServiceEndpoint('https://127.0.0.1:4728/push/abc', fake)).toBe(true);
    expect(isPushServiceEndpoint('https://127.0.0.1:4729/push/abc', fake)).toBe(false);
    expect(isPushServiceEndpoint('https://localhost:4728/push/abc', fake)).toBe(false);
    expect(isPushServiceEndpoint('https://127.0.0.1:4728/push/abc')).toBe(false);
  });
});
