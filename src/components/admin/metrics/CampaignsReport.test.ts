import { describe, expect, it } from 'vitest';
import type { CampaignReport, CampaignRow } from '../../../lib/admin/campaigns.ts';
import { listOf } from './CampaignsReport.tsx';

const report = (level: CampaignReport['level']) => ({ from: '2026-09', to: '2026-11', level }) as CampaignReport;
const row = (source: string | null, campaign: string | null, ad: string | null = null) =>
  ({ source, campaign, ad }) as CampaignRow;

describe('a campaign row’s link to its people in Prospectos', () => {
  it('carries the report’s months at both ends, and the campaign below the source level', () => {
    const link = new URL(listOf(row('google', 'otono-2026'), report('campaign')) ?? '', 'https://x');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      vista: 'prospectos',
      source: 'google',
      from: '2026-09-01',
      to: '2026-11-30',
      campaign: 'otono-2026',
    });
    const bySource = new URL(listOf(row('google', null), report('source')) ?? '', 'https://x');
    expect(bySource.searchParams.get('to')).toBe('2026-11-30');
    expect(bySource.searchParams.has('campaign')).toBe(false);
  });

  it('carries the ad of a row by ad, and no ad above that level', () => {
    const byAd = new URL(listOf(row('facebook', 'otono-2026', 'video-30s'), report('ad')) ?? '', 'https://x');
    expect(byAd.searchParams.get('campaign')).toBe('otono-2026');
    expect(byAd.searchParams.get('ad')).toBe('video-30s');
    const byCampaign = new URL(
      listOf(row('facebook', 'otono-2026', 'video-30s'), report('campaign')) ?? '',
      'https://x',
    );
    expect(byCampaign.searchParams.has('ad')).toBe(false);
  });

  it('has none for the people without a source', () => {
    expect(listOf(row(null, null), report('source'))).toBeNull();
  });
});
