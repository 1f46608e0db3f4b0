import { describe, expect, it } from 'vitest';
import { PARTNER_APPROVAL_THRESHOLD, PARTNER_SCORE_MAX, scorePartnerApplication } from './partner-score.ts';

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
