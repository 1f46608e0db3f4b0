import { appointmentJobs } from './appointment-messages/messages.ts';
import { getConfig, type ServerConfig } from './config.ts';
import { conversionJobs } from './conversions/jobs.ts';
import type { Database } from './db/database.ts';
import type { JobSource } from './jobs/pool.ts';
import { drain, maintainQueue, type NotificationWorker, startWorker } from './jobs/runner.ts';
import { notificationJobs } from './notifications/jobs.ts';
import { paymentJobs } from './payments/jobs.ts';
import { accountMailJobs } from './team/account-mail.ts';
import { whatsappJobs } from './whatsapp/jobs.ts';

/**
 * Every feature's jobs, in the order their runners start and their upkeep
 * runs: the one place that knows them all. The runner (src/server/jobs/)
 * imports no feature; a feature with background work exports a JobSource
 * and is added here (decision 0056).
 */
export const JOB_SOURCES: readonly JobSource[] = [
  notificationJobs,
  accountMailJobs,
  whatsappJobs,
  appointmentJobs,
  paymentJobs,
  conversionJobs,
];

/** The local server's worker (jobs/runner.ts startWorker) for every feature's jobs. */
export function startJobWorker(config: ServerConfig = getConfig()): Promise<NotificationWorker | null> {
  return startWorker(config, JOB_SOURCES);
}

/** One pass of Netlify's minute drain (jobs/runner.ts drain) over every feature's jobs. */
export function drainJobs(budgetMs: number, config: ServerConfig = getConfig()): Promise<{ processed: number }> {
  return drain(budgetMs, config, JOB_SOURCES);
}

/** The queue's upkeep (jobs/runner.ts maintainQueue) with every feature's part. */
export function maintainJobs(db: Database, config: ServerConfig, now = new Date()): Promise<void> {
  return maintainQueue(db, config, JOB_SOURCES, now);
}
