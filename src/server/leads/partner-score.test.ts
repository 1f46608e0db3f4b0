import { describe, expect, it } from 'vitest';
import { PARTNER_APPROVAL_THRESHOLD, PARTNER_SCORE_MAX } from '../../lib/forms/partner-application.ts';
import { withDatabase } from '../db/database.ts';
import { scorePartnerApplication } from './partner-score.ts';

describe('scorePartnerApplication', () => {
  it('gives the best answers the maximum of 13 and approves them', () => {
    const best = scorePartnerApplication({
      role: 'desarrollador',
      investment: '5m+',
      timeline: '0-3-meses',
      legal_documentation: 'si',
      consultancy_payment: 'si',
    });
    expect(best).toEqual({ score: PARTNER_SCORE_MAX, status: 'approved' });
  });

  it('approves exactly at the threshold of 8 and rejects at 7', () => {
    const base = { legal_documentation: 'si', consultancy_payment: 'si' } as const;
    // otro 1 + 1-2m 2 + 0 + 2 + 3 = 8
    expect(scorePartnerApplication({ ...base, role: 'otro', investment: '1-2m', timeline: 'mas-12-meses' })).toEqual({
      score: PARTNER_APPROVAL_THRESHOLD,
      status: 'approved',
    });
    // otro 1 + 500k-1m 1 + 0 + 2 + 3 = 7
    expect(scorePartnerApplication({ ...base, role: 'otro', investment: '500k-1m', timeline: '6-12-meses' })).toEqual({
      score: 7,
      status: 'rejected',
    });
  });

  it('rejects any "no" to the documentation or the consultancy fee, whatever the rest', () => {
    const strong = { role: 'inversionista', investment: '2-5m', timeline: '0-3-meses' } as const;
    // 3 + 3 + 2 - 999 + 3
    expect(scorePartnerApplication({ ...strong, legal_documentation: 'no', consultancy_payment: 'si' })).toEqual({
      score: -988,
      status: 'rejected',
    });
    expect(scorePartnerApplication({ ...strong, legal_documentation: 'si', consultancy_payment: 'no' }).status).toBe(
      'rejected',
    );
  });
});

describe('the scoring constants', () => {
  it('PARTNER_SCORE_MAX is the highest score the rules give', () => {
    const scores = (['desarrollador', 'inversionista', 'propietario', 'otro'] as const).flatMap((role) =>
      (['5m+', '2-5m', '1-2m', '500k-1m', 'menor-500k'] as const).flatMap((investment) =>
        (['0-3-meses', '3-6-meses', '6-12-meses', 'mas-12-meses'] as const).map(
          (timeline) =>
            scorePartnerApplication({
              role,
              investment,
              timeline,
              legal_documentation: 'si',
              consultancy_payment: 'si',
            }).score,
        ),
      ),
    );
    expect(Math.max(...scores)).toBe(PARTNER_SCORE_MAX);
  });

  it('the database CHECK approves at the same threshold as the server (migrated schema)', async () => {
    const definition = await withDatabase(async (db) => {
      const { rows } = await db.query<{ definition: string }>(
        `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'partner_applications_status'`,
      );
      return rows[0]?.definition ?? '';
    });
    const threshold = /score >= (\d+)/.exec(definition)?.[1];
    expect(definition).toContain('legal_documentation');
    expect(Number(threshold)).toBe(PARTNER_APPROVAL_THRESHOLD);
  });
});
