import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_LABELS,
  CHANNEL_REGISTRY,
  NOTIFICATION_CHANNELS,
  PURPOSE_LABELS,
  testNotificationSchema,
} from '../../src/lib/admin/notifications.ts';
import { parseConfig } from '../../src/server/config.ts';
import { type ChannelModule, PermanentFailure } from '../../src/server/notifications/channels/channel.ts';
import { CHANNEL_MODULES } from '../../src/server/notifications/channels/index.ts';
import { WhatsappRefusal } from '../../src/server/notifications/channels/whatsapp.ts';
import { channelSettings } from '../../src/server/outbox/channels.ts';
import { enabledChannels } from '../../src/server/outbox/queue.ts';
import { sql } from '../support/sql.ts';

/**
 * Issue #24, item 4: the channels are one list (CHANNEL_REGISTRY). A
 * migration cannot import it, so the database is held to it here: a channel
 * added to the list without its migration fails this file, which prints the
 * migration to write (docs/decisions/0029-channels-behind-one-interface.md).
 */
async function checkValues(column: string): Promise<{ name: string; values: string[] }> {
  const rows = await sql<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
     WHERE conrelid = 'notification_deliveries'::regclass AND contype = 'c'
       AND conkey = ARRAY[(SELECT attnum FROM pg_attribute
                           WHERE attrelid = 'notification_deliveries'::regclass AND attname = $1)]`,
    [column],
  );
  expect(rows, `one CHECK on notification_deliveries.${column}`).toHaveLength(1);
  const [check] = rows as [{ name: string; definition: string }];
  // CHECK ((channel = ANY (ARRAY['email'::text, 'webhook'::text, 'whatsapp'::text])))
  return {
    name: check.name,
    values: [...check.definition.matchAll(/'([^']*)'::text/g)].map((match) => match[1] ?? ''),
  };
}

const migrationFor = (name: string, column: string, values: readonly string[]) =>
  `ALTER TABLE notification_deliveries DROP CONSTRAINT ${name};\n` +
  `ALTER TABLE notification_deliveries ADD CONSTRAINT ${name}\n` +
  `  CHECK (${column} IN (${values.map((value) => `'${value}'`).join(', ')}));`;

describe('the one list of notification channels', () => {
  it('is what the database accepts: the CHECK allows every listed channel and no other', async () => {
    const { name, values } = await checkValues('channel');
    expect(
      [...values].sort(),
      `the channel list and the database disagree; add a migration (db/migrations/NNNN_*.sql):\n${migrationFor(name, 'channel', NOTIFICATION_CHANNELS)}`,
    ).toEqual([...NOTIFICATION_CHANNELS].sort());
    // The definition read above is really what is enforced: each channel is stored, an unknown one refused.
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('BEGIN');
      for (const channel of NOTIFICATION_CHANNELS) {
        await client.query(`INSERT INTO notification_deliveries (purpose, channel) VALUES ('test', $1)`, [channel]);
      }
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
    await expect(
      sql(`INSERT INTO notification_deliveries (purpose, channel) VALUES ('test', 'paloma')`),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('and the purposes the panel names are the ones the database accepts', async () => {
    const { name, values } = await checkValues('purpose');
    const purposes = Object.keys(PURPOSE_LABELS);
    expect([...values].sort(), migrationFor(name, 'purpose', purposes)).toEqual([...purposes].sort());
  });

  it('has a module for each channel; a channel is on when its variables are set, and says where it sends', () => {
    expect(Object.keys(CHANNEL_MODULES).sort()).toEqual([...NOTIFICATION_CHANNELS].sort());
    expect(Object.keys(CHANNEL_LABELS)).toEqual(NOTIFICATION_CHANNELS);
    const off = parseConfig({}).notifications;
    expect(enabledChannels(off)).toEqual([]);
    const on = parseConfig({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      NOTIFY_EMAIL_FROM: 'Avisos <avisos@ceibacasas.mx>',
      NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
      NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/ceiba',
      NOTIFY_WEBHOOK_SECRET: 'webhook-secret-of-at-least-16',
      WHATSAPP_TOKEN: 'EAAG-token',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_TEMPLATE: 'nuevo_prospecto',
      WHATSAPP_TO: '5219991234567',
    }).notifications;
    expect(enabledChannels(on)).toEqual(['email', 'webhook', 'whatsapp']);
    const views = enabledChannels(on).map((channel) => {
      const settings = channelSettings(channel, on);
      return settings && (CHANNEL_MODULES[channel] as ChannelModule<typeof settings>).target(settings);
    });
    expect(views).toEqual(['ventas@ceibacasas.mx', 'hooks.example.com', '…4567']);
  });

  it('names every channel in the test form’s message, from the list', () => {
    const parsed = testNotificationSchema.safeParse({ channel: 'paloma' });
    expect(parsed.success).toBe(false);
    const message = parsed.error?.issues[0]?.message ?? '';
    expect(message).toMatch(/^Elige un canal: .+\.$/);
    for (const channel of NOTIFICATION_CHANNELS) expect(message).toContain(CHANNEL_REGISTRY[channel].inText);
  });

  it('classifies each channel’s failures: retried unless no retry can fix it, said in Spanish', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    for (const channel of NOTIFICATION_CHANNELS) {
      const { classify } = CHANNEL_MODULES[channel];
      expect(classify(refused), channel).toEqual({
        permanent: false,
        reason: 'El receptor rechazó la conexión (ECONNREFUSED)',
      });
      expect(classify(new PermanentFailure('apagado')), channel).toEqual({ permanent: true, reason: 'apagado' });
    }
    const smtp = Object.assign(new Error('Invalid login: 535'), { code: 'EAUTH' });
    expect(CHANNEL_MODULES.email.classify(smtp)).toEqual({
      permanent: false,
      reason: 'El servidor SMTP rechazó el usuario o la contraseña (EAUTH)',
    });
    const token = new WhatsappRefusal('WhatsApp rechazó el mensaje (código 190: token)', true);
    expect(CHANNEL_MODULES.whatsapp.classify(token)).toMatchObject({ permanent: true });
    expect(CHANNEL_MODULES.whatsapp.classify(token).reason).toContain('Revisa WHATSAPP_TOKEN');
    const busy = new WhatsappRefusal('WhatsApp rechazó el mensaje (HTTP 503)', false);
    expect(CHANNEL_MODULES.whatsapp.classify(busy)).toEqual({ permanent: false, reason: busy.message });
  });
});
