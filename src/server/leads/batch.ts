import type { Queryable } from '../db/database.ts';

/**
 * Leads that wait for the database at the same moment, stored together
 * (decision 0044): one statement (`store_lead_requests()`, db/schema.sql), one
 * transaction, one commit for all of them, each lead in a subtransaction of
 * its own so that one lead's error undoes only that lead. While `maxInFlight`
 * statements are running, the leads that arrive wait and go together in the
 * next one; a lead that arrives alone goes at once, as a plain
 * `store_lead_request()`, in the same one round trip as before.
 */

/** What store_lead_requests() answers for each lead, in the order sent. */
type Outcome<T> = { stored: T } | { error: { code: string; message: string; hint: string | null } };

/**
 * SQLSTATEs after which a lead is tried again on its own: deadlock_detected,
 * serialization_failure, lock_not_available (store_lead_requests() waits at most 2 s
 * for a lock, so one held contact holds up no other lead of its statement).
 */
const TRY_ALONE_AGAIN = new Set(['40P01', '40001', '55P03']);

interface Waiting<A, T> {
  args: A;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export interface BatchOptions {
  /** Statements running at once (the rest of the pool serves everything else). */
  maxInFlight: number;
  /** Leads in one statement at the most. */
  maxBatch: number;
}

/**
 * Four statements at once, of at most 12 leads (decisions 0046, 0047):
 * under `bench:api`'s load (50 connections, about 3,000 leads a second),
 * four of up to 50 gave a p99 2.23-2.28x the floor's, as a lead that waited
 * behind a batch of 40 waited 20 ms more. Of statements of 12, six at once
 * competed with each other for the 2 cores: in four interleaved comparisons,
 * six of 12 had the highest p99 every time (32-35 ms) and the lowest
 * throughput; four or three of 12 had 28-32 ms and 2-5% more leads a second.
 */
const LEAD_BATCHES: BatchOptions = { maxInFlight: 4, maxBatch: 12 };

export class LeadBatcher<A, T> {
  private waiting: Waiting<A, T>[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly db: Queryable;
  private readonly storeOne: (db: Queryable, args: A) => Promise<T>;
  private readonly order: (args: A) => string;
  private readonly options: BatchOptions;

  /**
   * `storeOne` stores one lead in its own statement (store_lead_request()); `order`
   * gives each lead's sort key (its phone: batches that lock contacts in one
   * order cannot deadlock on them).
   */
  constructor(
    db: Queryable,
    storeOne: (db: Queryable, args: A) => Promise<T>,
    order: (args: A) => string,
    options: BatchOptions = LEAD_BATCHES,
  ) {
    this.db = db;
    this.storeOne = storeOne;
    this.order = order;
    this.options = options;
  }

  /** Stores the lead `args` (a lead_request), alone or with others waiting at the same moment. */
  add(args: A): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ args, resolve, reject });
      // Requests whose bodies arrived in the same turn of the event loop go together.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.drain();
      });
    }
  }

  private async run(batch: Waiting<A, T>[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Waiting<A, T>];
      await this.storeOne(this.db, only.args).then(only.resolve, only.reject);
      return;
    }
    batch.sort((a, b) => (this.order(a.args) < this.order(b.args) ? -1 : 1));
    let outcomes: Outcome<T>[];
    try {
      const { rows } = await this.db.query<{ outcomes: Outcome<T>[] }>('SELECT store_lead_requests($1) AS outcomes', [
        JSON.stringify(batch.map((lead) => lead.args)),
      ]);
      outcomes = rows[0]?.outcomes ?? [];
      if (outcomes.length !== batch.length) throw new Error('store_lead_requests answered for another number of leads');
    } catch (error) {
      // Nothing of the statement was committed: every lead of it failed as its own statement would have.
      for (const lead of batch) lead.reject(error);
      return;
    }
    await Promise.all(
      batch.map(async (lead, index) => {
        const outcome = outcomes[index] as Outcome<T>;
        if ('stored' in outcome) return lead.resolve(outcome.stored);
        if (TRY_ALONE_AGAIN.has(outcome.error.code)) {
          return this.storeOne(this.db, lead.args).then(lead.resolve, lead.reject);
        }
        lead.reject(
          Object.assign(new Error(outcome.error.message), { code: outcome.error.code, hint: outcome.error.hint }),
        );
      }),
    );
  }
}
