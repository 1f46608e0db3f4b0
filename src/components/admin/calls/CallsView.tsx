import { formatShortDate } from '../../../lib/admin/columns.ts';
import { callEndWords, formatDuration } from '../../../lib/voice/calls.ts';
import { ListFooter } from '../shared/ListFooter.tsx';
import { card, Loading } from '../shared/ui.tsx';
import { useCalls } from './queries.ts';

/** /admin#llamadas: every call with the voice agent, newest first; the CSV for administrators. */
export function CallsView({ canExport }: { canExport: boolean }) {
  const { calls, hasMore, loadingMore, more } = useCalls();

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
        <Loading text="Cargando llamadas..." />
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
                {formatDuration(call.durationSeconds)} · {callEndWords(call)}
              </p>
              <h3 className="mt-1 font-bold wrap-anywhere">
                <a
                  href={`/admin/llamada?id=${call.id}`}
                  className="inline-flex min-h-11 items-center underline-offset-4 hover:underline"
                >
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
      <ListFooter
        more={hasMore}
        loading={loadingMore}
        onMore={more}
        loadingText="Cargando..."
        className="btn btn-outline min-h-11 justify-self-center px-4 py-2"
      />
    </section>
  );
}
