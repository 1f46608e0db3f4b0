import { useCallback, useEffect, useState } from 'react';
import { attributionRows } from '../../lib/admin/attribution.ts';
import { formatShortDate } from '../../lib/admin/columns.ts';
import type { DeliveryView } from '../../lib/admin/notifications.ts';
import { showToast } from '../../lib/client/toast.ts';
import {
  type CallDetail,
  type CallSummary,
  type CallsPage,
  endedReasonLabel,
  formatDuration,
  SPEAKER_LABELS,
} from '../../lib/voice/calls.ts';
import { apiCall, goTo } from './api.ts';
import { DeliveryList } from './Deliveries.tsx';
import { usePanelUser } from './session.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const card = 'rounded-2xl bg-white p-4 ring-1 ring-brand-900/10';

/** /admin#llamadas: every call with the voice agent, newest first; the CSV for administrators. */
export function CallsView({ canExport }: { canExport: boolean }) {
  const [calls, setCalls] = useState<CallSummary[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (cursor: string | null) => {
    setLoading(true);
    const result = await apiCall<CallsPage>(
      `/api/admin/calls${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    ).catch(() => null);
    setLoading(false);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) return showToast({ title: 'Error al cargar las llamadas', variant: 'destructive' });
    setCalls((previous) => (cursor ? [...(previous ?? []), ...result.body.items] : result.body.items));
    setNext(result.body.nextCursor);
  }, []);

  useEffect(() => {
    void load(null);
  }, [load]);

  return (
    <section aria-labelledby="calls-title" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="calls-title" className="text-xl font-bold">
          Llamadas con el agente de voz
        </h2>
        {canExport && calls && calls.length > 0 && (
          <a href="/api/admin/calls/export.csv" download className="btn btn-outline min-h-11 px-4 py-2">
            Descargar CSV
          </a>
        )}
      </div>
      {calls === null ? (
        <p role="status" className="text-brand-800">
          Cargando llamadas...
        </p>
      ) : calls.length === 0 ? (
        <p className={`${card} text-brand-800`}>
          Todavía no hay llamadas. Cuando un visitante hable con el agente de voz, la llamada aparecerá aquí unos
          segundos después de colgar.
        </p>
      ) : (
        <ul className="grid gap-2">
          {calls.map((call) => (
            <li key={call.id} className={card}>
              <p className="text-sm text-brand-800">
                <time dateTime={call.at}>{formatShortDate(call.startedAt ?? call.at)}</time> ·{' '}
                {formatDuration(call.durationSeconds)} · {endedReasonLabel(call.endedReason)}
              </p>
              <h3 className="mt-1 font-bold wrap-anywhere">
                <a href={`/admin/llamada?id=${call.id}`} className="underline-offset-4 hover:underline">
                  {call.contactName ?? call.name ?? 'Visitante sin datos de contacto'}
                </a>
              </h3>
              {call.summary && <p className="mt-1 line-clamp-3 text-sm wrap-anywhere">{call.summary}</p>}
              {call.contactId && (
                <a
                  href={`/admin/prospecto?id=${call.contactId}`}
                  className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline"
                >
                  Ver prospecto
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
      {next && (
        <button
          type="button"
          className="btn btn-outline min-h-11 justify-self-center px-4 py-2"
          disabled={loading}
          onClick={() => void load(next)}
        >
          {loading ? 'Cargando...' : 'Cargar más'}
        </button>
      )}
    </section>
  );
}

/** /admin/llamada?id=…: one call, its summary, the conversation turn by turn, and the recording. */
export function CallPage() {
  const member = usePanelUser();
  const [call, setCall] = useState<(CallDetail & { deliveries: DeliveryView[] }) | null>(null);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    if (!member) return;
    const id = new URLSearchParams(window.location.search).get('id');
    if (!id || !UUID.test(id)) return setMissing(true);
    void (async () => {
      const result = await apiCall<CallDetail & { deliveries: DeliveryView[] }>(`/api/admin/calls/${id}`).catch(
        () => null,
      );
      if (result?.status === 401) return goTo('/auth');
      if (result?.status === 404) return setMissing(true);
      if (!result?.ok) return showToast({ title: 'Error al cargar la llamada', variant: 'destructive' });
      setCall(result.body);
    })();
  }, [member]);

  if (missing) {
    return (
      <div className="grid gap-4 py-16 text-center">
        <h1 className="text-2xl font-bold">No encontramos esta llamada</h1>
        <a href="/admin#llamadas" className="btn btn-outline justify-self-center">
          Volver a Llamadas
        </a>
      </div>
    );
  }
  if (!call) {
    return (
      <p className="py-16 text-center text-brand-800" role="status">
        Cargando llamada...
      </p>
    );
  }
  const who = call.contactName ?? call.name ?? 'Visitante sin datos de contacto';
  const facts: [string, string][] = [
    ['Inicio', call.startedAt ? formatShortDate(call.startedAt) : formatShortDate(call.at)],
    ['Duración', formatDuration(call.durationSeconds)],
    ['Fin', endedReasonLabel(call.endedReason)],
    ['Teléfono', call.phone ?? ''],
    ['Correo', call.email ?? ''],
    ['Interés', call.interest ?? ''],
    ['Página', call.page ?? ''],
    ...attributionRows(call.attribution).map((row): [string, string] => [row.label, row.value]),
  ];
  return (
    <div className="grid min-w-0 gap-6">
      <a
        href="/admin#llamadas"
        className="justify-self-start text-sm font-semibold text-brand-800 underline-offset-4 hover:underline"
      >
        ← Llamadas
      </a>
      <header className="grid gap-2">
        <h1 className="wrap-anywhere text-2xl font-bold sm:text-3xl">Llamada de {who}</h1>
        {call.contactId && (
          <a href={`/admin/prospecto?id=${call.contactId}`} className="justify-self-start font-semibold underline">
            Ver prospecto
          </a>
        )}
        <DeliveryList deliveries={call.deliveries} label="Avisos al equipo de esta llamada" />
      </header>
      <dl className={`grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2 ${card}`}>
        {facts
          .filter(([, value]) => value !== '')
          .map(([label, value]) => (
            <div key={label} className="flex gap-2">
              <dt className="shrink-0 text-brand-700">{label}:</dt>
              <dd className="min-w-0 wrap-anywhere">{value}</dd>
            </div>
          ))}
      </dl>
      {call.summary && (
        <section aria-labelledby="summary-title" className={card}>
          <h2 id="summary-title" className="text-lg font-bold">
            Resumen
          </h2>
          <p className="mt-1 wrap-anywhere">{call.summary}</p>
        </section>
      )}
      {call.recordingUrl && (
        <a
          href={call.recordingUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="btn btn-outline min-h-11 justify-self-start px-4 py-2"
        >
          Escuchar la grabación
        </a>
      )}
      <section aria-labelledby="conversation-title" className="grid gap-3">
        <h2 id="conversation-title" className="text-lg font-bold">
          Conversación
        </h2>
        {call.messages.length === 0 ? (
          call.transcript ? (
            <p className={`whitespace-pre-wrap wrap-anywhere ${card}`}>{call.transcript}</p>
          ) : (
            <p className="text-brand-800">La plataforma no envió la transcripción de esta llamada.</p>
          )
        ) : (
          <ol className="grid gap-2">
            {call.messages.map((turn, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: the turns never change order
                key={index}
                className={`max-w-[85%] rounded-2xl p-3 ${
                  turn.role === 'agente'
                    ? 'justify-self-start bg-white ring-1 ring-brand-900/10'
                    : 'justify-self-end bg-brand-100'
                }`}
              >
                <p className="text-xs font-bold text-brand-800">
                  {SPEAKER_LABELS[turn.role]}
                  {turn.seconds !== null ? ` · ${formatDuration(turn.seconds)}` : ''}
                </p>
                <p className="wrap-anywhere">{turn.text}</p>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
