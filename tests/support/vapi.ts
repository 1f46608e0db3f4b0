import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The voice platform's server messages, from tests/fixtures/vapi (written from its documentation). */
export function vapiFixture(name: string): { message: Record<string, unknown> } {
  return JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/vapi', `${name}.json`), 'utf8')) as {
    message: Record<string, unknown>;
  };
}

/** The full end-of-call report for another call: its own id and, when given, its own structured data. */
export function vapiReport(callId: string, structuredData?: Record<string, unknown>) {
  const report = vapiFixture('end-of-call-report') as {
    message: Record<string, unknown> & { call: { id: string }; analysis: { structuredData: unknown } };
  };
  report.message.call.id = callId;
  if (structuredData) report.message.analysis.structuredData = structuredData;
  return report;
}
