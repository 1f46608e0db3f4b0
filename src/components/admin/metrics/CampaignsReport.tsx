import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import {
  CAMPAIGN_COLUMNS,
  CAMPAIGN_LEVEL_LABELS,
  CAMPAIGN_LEVELS,
  type CampaignLevel,
  type CampaignReport,
  type CampaignRow,
  costPer,
} from '../../../lib/admin/campaigns.ts';
import { formatPesos } from '../../../lib/admin/catalogue.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { ApiError, api } from '../api.ts';
import { usePanelUser } from '../session.ts';
import { FormActions } from '../shared/FormActions.tsx';
import { PanelLink } from '../shared/PanelLink.tsx';
import { LoadFailed, Loading, Section } from '../shared/ui.tsx';

/** "2026-11", this month of Mérida, and the one `back` months before. */
function month(back = 0): string {
  const [year, number] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' })
    .format(new Date())
    .split('-')
    .map(Number) as [number, number];
  const index = year * 12 + (number - 1) - back;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

const count = (value: number) => value.toLocaleString('es-MX');
const money = (value: number | null) => (value === null ? '—' : formatPesos(value));
const MONEY_COLUMNS = new Set(['wonValueMxn', 'spendMxn']);

/** The row's name in the table, and the list of its people (Prospectos by source, campaign and ad). */
function rowLabel(row: CampaignRow, level: CampaignLevel) {
  const parts = [row.source ?? 'Sin fuente (directo)'];
  if (level !== 'source') parts.push(row.campaign ?? 'sin campaña');
  if (level === 'ad') parts.push(row.ad ?? 'sin anuncio');
  return parts.join(' · ');
}

/** The last day of a month `YYYY-MM`, as `YYYY-MM-DD`. */
function lastDayOf(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10);
}

export function listOf(row: CampaignRow, report: CampaignReport): string | null {
  if (row.source === null) return null;
  // The report's months, both ends: a row counts the people whose first lead came between them.
  const params = new URLSearchParams({
    vista: 'prospectos',
    source: row.source,
    from: `${report.from}-01`,
    to: lastDayOf(report.to),
  });
  if (report.level !== 'source' && row.campaign) params.set('campaign', row.campaign);
  if (report.level === 'ad' && row.ad) params.set('ad', row.ad);
  return `/admin?${params}`;
}

/** Marketing's spend of a campaign in a month (administrators). */
function SpendForm({ from }: { from: string }) {
  const id = useId();
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (spend: { source: string; campaign: string; month: string; amountMxn: number }) =>
      api('/api/admin/campaigns/spend', { method: 'POST', json: spend }),
    onSuccess: () => {
      setError(null);
      showToast({ title: 'Gasto guardado' });
      void client.invalidateQueries({ queryKey: ['campaigns'] });
    },
    onError: (failure) =>
      setError(failure instanceof ApiError ? failure.message : 'No se pudo guardar el gasto. Intenta de nuevo.'),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    save.mutate({
      source: String(data.get('source') ?? ''),
      campaign: String(data.get('campaign') ?? ''),
      month: String(data.get('month') ?? ''),
      amountMxn: Number(data.get('amount') ?? Number.NaN),
    });
  };
  return (
    <form className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10" onSubmit={submit}>
      <h3 className="font-bold">Registrar gasto de una campaña</h3>
      <div className="grid gap-3 sm:grid-cols-4">
        <label className="grid gap-1 text-sm font-semibold" htmlFor={`${id}-source`}>
          Fuente (utm_source)
          <input
            id={`${id}-source`}
            name="source"
            required
            maxLength={200}
            className="field-input"
            placeholder="google"
          />
        </label>
        <label className="grid gap-1 text-sm font-semibold" htmlFor={`${id}-campaign`}>
          Campaña (utm_campaign)
          <input id={`${id}-campaign`} name="campaign" required maxLength={200} className="field-input" />
        </label>
        <label className="grid gap-1 text-sm font-semibold" htmlFor={`${id}-month`}>
          Mes
          <input id={`${id}-month`} name="month" type="month" required defaultValue={from} className="field-input" />
        </label>
        <label className="grid gap-1 text-sm font-semibold" htmlFor={`${id}-amount`}>
          Gasto (MXN)
          <input
            id={`${id}-amount`}
            name="amount"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            required
            className="field-input"
          />
        </label>
      </div>
      <FormActions
        align="start"
        error={error}
        submit={save.isPending ? 'Guardando…' : 'Guardar gasto'}
        disabled={save.isPending}
      />
    </form>
  );
}

/**
 * Métricas → Campañas (issue #43): the people each source, campaign or ad
 * brought in the chosen months and what became of them, with the cost per
 * person and per sale when marketing typed the spend; the CSV for
 * administrators, and what was not told to the ad platforms and why.
 */
export function CampaignsReport() {
  const id = useId();
  const user = usePanelUser();
  const [from, setFrom] = useState(() => month(2));
  const [to, setTo] = useState(() => month(0));
  const [level, setLevel] = useState<CampaignLevel>('campaign');
  const query = new URLSearchParams({ from, to, level });
  const report = useQuery({
    queryKey: ['campaigns', from, to, level],
    queryFn: () => api<CampaignReport>(`/api/admin/campaigns?${query}`),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Error al cargar el reporte de campañas' },
  });
  const data = report.data;
  return (
    <Section title="Campañas: de anuncio a venta" titleClass="text-lg font-bold">
      <div className="grid gap-4">
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm font-semibold" htmlFor={`${id}-from`}>
            Desde
            <input
              id={`${id}-from`}
              type="month"
              className="field-input"
              value={from}
              max={to}
              onChange={(event) => event.target.value && setFrom(event.target.value)}
            />
          </label>
          <label className="grid gap-1 text-sm font-semibold" htmlFor={`${id}-to`}>
            Hasta
            <input
              id={`${id}-to`}
              type="month"
              className="field-input"
              value={to}
              min={from}
              max={month(0)}
              onChange={(event) => event.target.value && setTo(event.target.value)}
            />
          </label>
          <label className="grid gap-1 text-sm font-semibold" htmlFor={`${id}-level`}>
            Detalle
            <select
              id={`${id}-level`}
              className="field-input"
              value={level}
              onChange={(event) => setLevel(event.target.value as CampaignLevel)}
            >
              {CAMPAIGN_LEVELS.map((value) => (
                <option key={value} value={value}>
                  {CAMPAIGN_LEVEL_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          {user?.admin && (
            <a
              className="btn btn-outline min-h-11 px-4 py-2"
              href={`/api/admin/campaigns/export.csv?${query}`}
              download
            >
              Descargar CSV
            </a>
          )}
        </div>
        <p className="text-sm text-brand-800">
          Personas cuya primera solicitud llegó en esos meses, por la fuente y la campaña de su primera visita, y todo
          lo que pasó con ellas después.
        </p>
        {report.isError && !data ? (
          <LoadFailed
            error={report.error}
            what="No se pudo cargar el reporte de campañas."
            retry={() => void report.refetch()}
          />
        ) : !data ? (
          <Loading text="Cargando el reporte…" />
        ) : data.rows.length === 0 ? (
          <p className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">Nadie llegó en esos meses.</p>
        ) : (
          <section
            className="overflow-x-auto rounded-2xl bg-white ring-1 ring-brand-900/10"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
            tabIndex={0}
            aria-label="Reporte de campañas"
            aria-busy={report.isFetching}
          >
            <table className="w-full min-w-[60rem] text-left text-sm">
              <caption className="sr-only">
                Reporte de campañas de {from} a {to}
              </caption>
              <thead className="text-xs text-brand-800">
                <tr>
                  <th scope="col" className="px-4 py-2">
                    {level === 'source'
                      ? 'Fuente'
                      : level === 'campaign'
                        ? 'Fuente · campaña'
                        : 'Fuente · campaña · anuncio'}
                  </th>
                  {CAMPAIGN_COLUMNS.map(([key, label]) => (
                    <th key={key} scope="col" className="px-3 py-2 text-right">
                      {label}
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-2 text-right">
                    Costo por persona
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Costo por venta
                  </th>
                </tr>
              </thead>
              <tbody>
                {[
                  ...data.rows.map((row) => ({ row, total: false })),
                  { row: { ...data.totals, source: null, campaign: null, ad: null }, total: true },
                ].map(({ row, total }) => {
                  const href = total ? null : listOf(row, data);
                  const label = total ? 'Total' : rowLabel(row, data.level);
                  return (
                    <tr
                      key={total ? 'total' : `${row.source}|${row.campaign}|${row.ad}`}
                      className={`border-t border-brand-900/10 ${total ? 'font-bold' : ''}`}
                    >
                      <th scope="row" className="min-w-48 px-4 py-2 font-semibold break-words">
                        {href ? (
                          <PanelLink href={href} className="underline">
                            {label}
                          </PanelLink>
                        ) : (
                          label
                        )}
                      </th>
                      {CAMPAIGN_COLUMNS.map(([key]) => (
                        <td key={key} className="px-3 py-2 text-right tabular-nums">
                          {MONEY_COLUMNS.has(key) ? money(row[key] as number | null) : count(row[key] as number)}
                        </td>
                      ))}
                      <td className="px-3 py-2 text-right tabular-nums">
                        {money(costPer(row.spendMxn, row.contacts))}
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{money(costPer(row.spendMxn, row.won))}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        )}
        {data && (
          <p className="text-sm text-brand-800" data-conversions>
            Avisos a Meta y Google de estas personas: {count(data.conversions.sent)} enviados;{' '}
            {count(data.conversions.noConsent)} sin enviar por no tener su consentimiento;{' '}
            {count(data.conversions.noClickId)} sin enviar a Google por no venir de un anuncio suyo;{' '}
            {count(data.conversions.failed)} fallidos tras varios intentos.
          </p>
        )}
        {user?.admin && <SpendForm from={to} />}
      </div>
    </Section>
  );
}
