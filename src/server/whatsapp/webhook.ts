import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Queryable, withDatabase } from '../db/database.ts';
import { scheduleSoon } from './queue.ts';

/** The largest delivery we accept: Meta batches up to 1,000 updates, each a few hundred bytes. */
export const MAX_WEBHOOK_BYTES = 3 * 1024 * 1024;

/**
 * `X-Hub-Signature-256: sha256=<hex>` is the HMAC-SHA256 of the body's bytes
 * exactly as sent (never of re-serialised JSON: accents and emoji are
 * escaped differently) with the app secret; compared in constant time.
 */
export function signatureValid(raw: Uint8Array, header: string | null, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return false;
  const sent = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(sent, expected);
}

/** The handshake: `hub.mode=subscribe` and our verify token give back `hub.challenge`; null refuses it. */
export function handshake(url: URL, verifyToken: string): string | null {
  const mode = url.searchParams.get('hub.mode');
  const token = url.searchParams.get('hub.verify_token') ?? '';
  const challenge = url.searchParams.get('hub.challenge');
  if (mode !== 'subscribe' || challenge === null || !/^[\w-]{1,200}$/.test(challenge)) return null;
  const sent = createHmac('sha256', 'verify').update(token).digest();
  const expected = createHmac('sha256', 'verify').update(verifyToken).digest();
  return timingSafeEqual(sent, expected) ? challenge : null;
}

/**
 * Deliveries stored as received, in one INSERT (one commit): the ids of the
 * rows added, in no particular order. A body stored before (a replay, or the
 * same body twice in the group) adds no row: its bytes' SHA-256 is unique
 * (migration 0034, decision 0050), and the first copy's job processes it.
 */
export async function storeEvents(db: Queryable, bodies: readonly string[]): Promise<string[]> {
  const rows = bodies.map((_, index) => `($${index + 1})`).join(', ');
  const { rows: stored } = await db.query<{ id: string }>(
    `INSERT INTO whatsapp_webhook_events (body) VALUES ${rows} ON CONFLICT (body_sha256) DO NOTHING RETURNING id`,
    [...bodies],
  );
  return stored.map((row) => String(row.id));
}

/** A delivery waiting for the next group commit. */
interface Waiting {
  body: string;
  /** Its row is committed; `jobs` settles when its job (with its group's) is added. */
  stored(jobs: Promise<void>): void;
  failed(error: unknown): void;
}

/** One group commit's rows at most, and about its bytes (a delivery is at most MAX_WEBHOOK_BYTES). */
const GROUP_ROWS = 500;
const GROUP_BYTES = 8 * 1024 * 1024;
/** Group commits in flight at once; while they run, the deliveries arriving gather for the next. */
const GROUPS_IN_FLIGHT = 2;

let gathering: Waiting[] = [];
let inFlight = 0;
let pumpScheduled = false;
let lastCommitAt = Number.NEGATIVE_INFINITY;

/** How long after its last group commit the webhook still counts as busy. */
const BUSY_AFTER_MS = 100;

/**
 * Deliveries are arriving: some gather or are being committed, or the last
 * group was committed moments ago. The queue's processing then takes fewer
 * slots (jobs.ts), so that the acknowledgements get the CPU first.
 */
export function acknowledging(): boolean {
  return inFlight > 0 || gathering.length > 0 || performance.now() - lastCommitAt < BUSY_AFTER_MS;
}

/**
 * The acknowledgement's work (decision 0039, addendum of 2026-11-27): the
 * delivery is stored with the others that arrived with it in one INSERT,
 * one commit (group commit), and each caller's promise resolves only once
 * that commit is done, so a 200 always means the row is durable. Its job is
 * added after, once per group (scheduleSoon): `jobs` settles then (for
 * Netlify's waitUntil). A group the database refuses for one of its
 * rows (a data error) is stored again row by row, so one bad delivery costs
 * the others nothing; a database down fails the whole group (503 each, and
 * the platform retries).
 */
export function storeDelivery(body: string): Promise<{ jobs: Promise<void> }> {
  return new Promise((resolve, reject) => {
    // Wrapped: a promise resolved with a promise would wait for the jobs too.
    gathering.push({ body, stored: (jobs) => resolve({ jobs }), failed: reject });
    if (!pumpScheduled) {
      pumpScheduled = true;
      // After this turn of the event loop: the deliveries read in it go together.
      setImmediate(pump);
    }
  });
}

function pump(): void {
  pumpScheduled = false;
  while (inFlight < GROUPS_IN_FLIGHT && gathering.length > 0) {
    const group = takeGroup();
    inFlight += 1;
    void commitGroup(group).finally(() => {
      inFlight -= 1;
      lastCommitAt = performance.now();
      pump();
    });
  }
}

function takeGroup(): Waiting[] {
  let count = 0;
  let bytes = 0;
  while (count < gathering.length && count < GROUP_ROWS) {
    const size = (gathering[count] as Waiting).body.length * 3;
    if (count > 0 && bytes + size > GROUP_BYTES) break;
    bytes += size;
    count += 1;
  }
  const group = gathering.slice(0, count);
  gathering = gathering.slice(count);
  return group;
}

/** A data exception, an integrity or a size limit: about one row, not the database. */
const refusedRow = (error: unknown) => /^(22|23|54)/.test(String((error as { code?: unknown }).code ?? ''));

async function commitGroup(group: Waiting[]): Promise<void> {
  try {
    const ids = await withDatabase((db) =>
      storeEvents(
        db,
        group.map((waiting) => waiting.body),
      ),
    );
    const jobs = scheduleSoon(ids);
    for (const waiting of group) waiting.stored(jobs);
  } catch (error) {
    if (group.length === 1 || !refusedRow(error)) {
      for (const waiting of group) waiting.failed(error);
      return;
    }
    await Promise.all(
      group.map((waiting) =>
        withDatabase((db) => storeEvents(db, [waiting.body])).then(
          (ids) => waiting.stored(scheduleSoon(ids)),
          (single: unknown) => waiting.failed(single),
        ),
      ),
    );
  }
}
