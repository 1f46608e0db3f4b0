import { describe, expect, it } from 'vitest';
import { clientAddress, limitSubject, normalizeAddress, UNKNOWN_ADDRESS } from './client-address.ts';

describe('normalizeAddress', () => {
  it('keeps valid IPv4 and IPv6 addresses, canonical', () => {
    expect(normalizeAddress(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress('2001:DB8::1')).toBe('2001:db8::1');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80::1');
  });

  it('refuses anything else', () => {
    for (const value of ['', 'unknown', '1.2.3', '999.1.1.1', 'x'.repeat(6000), '1.2.3.4, 5.6.7.8', '<script>']) {
      expect(normalizeAddress(value)).toBeNull();
    }
  });
});

describe('clientAddress', () => {
  it('trusts no proxy by default: X-Forwarded-For is ignored', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.7', false)).toBe('127.0.0.1');
  });

  it('behind trusted proxies, takes the right-most address that is not one', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1, 203.0.113.7', 'loopback')).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', '198.51.100.1, 203.0.113.7, 10.0.0.3', ['10.0.0.2', '10.0.0.3'])).toBe(
      '203.0.113.7',
    );
    // A peer that is not trusted is the client, whatever it forwards.
    expect(clientAddress('203.0.113.9', '198.51.100.1', 'loopback')).toBe('203.0.113.9');
  });

  it('never uses an entry that is not an address', () => {
    expect(clientAddress('127.0.0.1', `${'x'.repeat(6000)}`, 'loopback')).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '203.0.113.7, basura', 'loopback')).toBe('127.0.0.1');
    expect(clientAddress(undefined, '203.0.113.7', 'loopback')).toBe(UNKNOWN_ADDRESS);
  });
});

describe('limitSubject (issue #38)', () => {
  it('counts an IPv6 client by its /64 network, whichever address of it is written how', () => {
    const subject = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002:0:0:0:9']) {
      expect(limitSubject(normalizeAddress(address) as string), address).toBe(subject);
    }
    expect(limitSubject('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(limitSubject('::1')).toBe('0:0:0:0::/64');
    expect(limitSubject('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(limitSubject('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(limitSubject('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
    expect(limitSubject('1:2:3::4.5.6.7')).toBe('1:2:3:0::/64');
  });

  it('keeps an IPv4 address, and the unknown address, as they are', () => {
    expect(limitSubject('203.0.113.7')).toBe('203.0.113.7');
    expect(limitSubject(UNKNOWN_ADDRESS)).toBe(UNKNOWN_ADDRESS);
  });
});
