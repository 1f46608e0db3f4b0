import { useState } from 'react';
import { formatPesos } from '../../../lib/admin/catalogue.ts';
import { CONTACT_STATES, type ContactState, type LostReason, STATE_LABELS } from '../../../lib/admin/contacts.ts';
import type { PipelineCard } from '../../../lib/admin/pipeline.ts';
import { explain } from '../api.ts';
import { LoadFailed, Loading } from '../shared/ui.tsx';
import { setUrlParams, useUrlParams } from '../shared/url.ts';
import { MoveDialog } from './MoveDialog.tsx';
import { PipelineColumn } from './PipelineColumn.tsx';
import { type PipelineAssigned, pipelineScope, useMoveCard, usePipeline } from './queries.ts';

const CHIP =
  'inline-flex min-h-11 shrink-0 items-center rounded-full px-4 text-sm font-semibold whitespace-nowrap text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-pressed:bg-brand-900 aria-pressed:text-white';

const SCOPES: [PipelineAssigned, string][] = [
  ['', 'Todo el equipo'],
  ['me', 'Mis prospectos'],
  ['none', 'Sin asignar'],
];

const scopeOf = (value: string | null): PipelineAssigned => (value === 'me' || value === 'none' ? value : '');
/** A typed filter from the address: trimmed, 200 characters at most, or nothing. */
const textOf = (value: string | null): string | undefined => value?.trim().slice(0, 200) || undefined;
const stageOf = (value: string | null): ContactState =>
  CONTACT_STATES.find((state) => state === value) ?? CONTACT_STATES[0];

/**
 * "Embudo" (issue #26, item 6): one column per state with its count and the
 * sum of its estimated values. A desktop shows the seven side by side and
 * moves a card by dragging it; a phone shows one stage at a time (chosen
 * above, kept in the address as `etapa`) and moves a card with "Mover a…",
 * which the keyboard and screen readers use too. The result is said in a
 * live region; a refused move is taken back.
 */
export function PipelineView() {
  const params = useUrlParams();
  const assigned = scopeOf(params.get('assigned'));
  const source = textOf(params.get('source'));
  const campaign = textOf(params.get('campaign'));
  const scope = pipelineScope({ assigned, source, campaign });
  const stage = stageOf(params.get('etapa'));
  const board = usePipeline(scope);
  const move = useMoveCard();
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<PipelineCard | null>(null);
  const [asking, setAsking] = useState<{ card: PipelineCard; to: ContactState | null } | null>(null);

  function commit(card: PipelineCard, to: ContactState, lostReason: LostReason | null) {
    setAsking(null);
    setAnnouncement(`Moviendo a ${card.name}…`);
    move.mutate(
      { card, to, lostReason },
      {
        onSuccess: () => setAnnouncement(`${card.name} pasó a «${STATE_LABELS[to]}».`),
        onError: (error) =>
          setAnnouncement(`No se movió a ${card.name}; sigue en «${STATE_LABELS[card.state]}». ${explain(error)}`),
      },
    );
  }
  /** A drop or a choice: a lost deal asks its reason first. */
  function request(card: PipelineCard, to: ContactState) {
    setDragging(null);
    if (to === card.state) return;
    if (to === 'cerrado_perdido') return setAsking({ card, to });
    commit(card, to, null);
  }

  const columns = board.data?.columns;
  const total = columns?.reduce((sum, column) => sum + column.total, 0) ?? 0;
  const open = columns
    ?.filter((column) => !column.state.startsWith('cerrado_'))
    .reduce((sum, column) => sum + column.value, 0);

  return (
    <section aria-labelledby="pipeline-title" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="pipeline-title" className="text-xl font-bold">
            Embudo
          </h2>
          {columns && (
            <p className="text-sm text-brand-800">
              {total.toLocaleString('es-MX')} {total === 1 ? 'prospecto' : 'prospectos'} · En curso:{' '}
              <span className="font-semibold tabular-nums">{formatPesos(open ?? 0)}</span>
            </p>
          )}
        </div>
        <fieldset className="flex min-w-0 flex-wrap gap-2">
          <legend className="sr-only">De quién</legend>
          {SCOPES.map(([value, label]) => (
            <button
              key={label}
              type="button"
              className={CHIP}
              aria-pressed={assigned === value}
              onClick={() => setUrlParams({ assigned: value })}
            >
              {label}
            </button>
          ))}
        </fieldset>
      </div>
      <CampaignFilter source={source} campaign={campaign} />

      <p role="status" aria-live="polite" className="min-h-5 text-sm font-semibold text-brand-800">
        {announcement}
      </p>

      {board.isError ? (
        <LoadFailed error={board.error} retry={() => void board.refetch()} what="No se pudo cargar el embudo." />
      ) : !columns ? (
        <Loading text="Cargando…" />
      ) : (
        <>
          {/* A phone shows one stage at a time: chosen here (a row that scrolls inside itself). */}
          <fieldset className="-mx-4 flex min-w-0 gap-2 overflow-x-auto px-4 pb-1 lg:hidden">
            <legend className="sr-only">Etapa que se muestra</legend>
            {columns.map((column) => (
              <button
                key={column.state}
                type="button"
                className={CHIP}
                aria-pressed={stage === column.state}
                onClick={() => setUrlParams({ etapa: column.state })}
              >
                {STATE_LABELS[column.state]} ({column.total.toLocaleString('es-MX')})
              </button>
            ))}
          </fieldset>
          {/* Seven stages side by side at 1,280 px; a narrower desktop scrolls them sideways instead of squeezing each card (the padding keeps the columns' rings inside the scroller). */}
          <div className="grid min-w-0 gap-3 lg:auto-cols-[minmax(10rem,1fr)] lg:grid-flow-col lg:overflow-x-auto lg:p-1 lg:pb-2">
            {columns.map((column) => (
              <PipelineColumn
                key={`${scope}-${column.state}`}
                column={column}
                assigned={scope}
                dragging={dragging}
                moving={move.isPending ? (move.variables?.card.id ?? null) : null}
                hidden={column.state !== stage}
                onDrop={request}
                onDragStart={setDragging}
                onDragEnd={() => setDragging(null)}
                onMoveMenu={(card) => setAsking({ card, to: null })}
              />
            ))}
          </div>
        </>
      )}
      <MoveDialog card={asking?.card ?? null} to={asking?.to ?? null} onMove={commit} onClose={() => setAsking(null)} />
    </section>
  );
}

/**
 * Only the people a source or a campaign brought (their first touch, issue
 * #43), as Prospectos and the campaign report name them; kept in the address.
 */
function CampaignFilter({ source, campaign }: { source?: string; campaign?: string }) {
  return (
    <details className="rounded-2xl bg-white px-4 py-2 ring-1 ring-brand-900/10" open={Boolean(source || campaign)}>
      <summary className="flex min-h-11 cursor-pointer items-center text-sm font-semibold">
        Filtrar por fuente o campaña{source || campaign ? ` (${[source, campaign].filter(Boolean).join(' · ')})` : ''}
      </summary>
      <form
        className="grid gap-3 pb-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          setUrlParams({
            source: String(data.get('source') ?? '').trim(),
            campaign: String(data.get('campaign') ?? '').trim(),
          });
        }}
      >
        {(
          [
            ['source', 'Fuente', source],
            ['campaign', 'Campaña', campaign],
          ] as const
        ).map(([name, label, value]) => (
          <label key={name} className="field">
            <span className="field-label">{label}</span>
            <input
              className="field-input"
              name={name}
              defaultValue={value ?? ''}
              maxLength={200}
              placeholder={`utm_${name}`}
            />
          </label>
        ))}
        <button type="submit" className="btn btn-outline min-h-11 px-4 py-2">
          Filtrar
        </button>
      </form>
    </details>
  );
}
