import { useState } from 'react';
import { attributionRows } from '../../../lib/admin/attribution.ts';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { formatPhone } from '../../../lib/forms/phone.ts';
import { isUuid } from '../../../lib/ids.ts';
import { callEndWords, formatDuration, SPEAKER_LABELS } from '../../../lib/voice/calls.ts';
import { PanelQueries } from '../query.tsx';
import { usePanelUser } from '../session.ts';
import { DeliveryList } from '../shared/Deliveries.tsx';
import { BackLink, card, Loading, NotFound, Section } from '../shared/ui.tsx';
import { useCall } from './queries.ts';

/** The island of /admin/llamada. */
export default function CallPageIsland() {
  return (
    <PanelQueries>
      <CallPage />
    </PanelQueries>
  );
}

/** /admin/llamada?id=…: one call, its summary, the conversation turn by turn, and the recording. */
export function CallPage() {
  const member = usePanelUser();
  const [id] = useState(() =>
    typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('id') ?? ''),
  );
  const query = useCall(id, member !== null && isUuid(id));
  const call = query.data;
  const missing = member !== null && (!isUuid(id) || query.error?.status === 404);

  if (missing) {
    return <NotFound title="No encontramos esta llamada" href="/admin?vista=llamadas" back="Volver a Llamadas" />;
  }
  if (!call) return <Loading text="Cargando llamada..." page />;
  const who = call.contactName ?? call.name ?? 'Visitante sin datos de contacto';
  const facts: [string, string][] = [
    ['Inicio', call.startedAt ? formatShortDate(call.startedAt) : formatShortDate(call.at)],
    ['Duración', formatDuration(call.durationSeconds)],
    ['Fin', callEndWords(call)],
    ['Teléfono', call.phone ? formatPhone(call.phone) : ''],
    ['Correo', call.email ?? ''],
    ['Interés', call.interest ?? ''],
    ['Página', call.page ?? ''],
    ...attributionRows(call.attribution).map((row): [string, string] => [row.label, row.value]),
  ];
  return (
    <div className="grid min-w-0 gap-6">
      <BackLink href="/admin?vista=llamadas">Llamadas</BackLink>
      <header className="grid gap-2">
        <h1 className="wrap-anywhere text-2xl font-bold sm:text-3xl">Llamada de {who}</h1>
        {call.contactId && (
          <a
            href={`/admin/prospecto?id=${call.contactId}`}
            className="inline-flex min-h-11 items-center justify-self-start font-semibold underline"
          >
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
      <Section title="Conversación" titleClass="text-lg font-bold">
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
      </Section>
    </div>
  );
}
