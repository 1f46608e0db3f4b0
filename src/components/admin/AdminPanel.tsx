import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import {
  COLUMNS,
  formatShortDate,
  isStrongScore,
  LEAD_KINDS,
  type LeadKind,
  type LeadRow,
  scorePercent,
} from '../../lib/admin/columns.ts';
import type { DeliveryView } from '../../lib/admin/notifications.ts';
import { ROLE_LABELS } from '../../lib/admin/team.ts';
import { showToast } from '../../lib/client/toast.ts';
import { apiCall, goTo } from './api.ts';
import { CallsView } from './CallsView.tsx';
import ContactsView from './ContactsView.tsx';
import { DeliveryList } from './Deliveries.tsx';
import NotificationsView from './NotificationsView.tsx';
import { usePanelUser } from './session.ts';
import { AccountView, ActivityView, TeamView } from './TeamViews.tsx';

interface Page {
  items: LeadRow[];
  deliveries: Record<string, DeliveryView[]>;
  nextCursor: string | null;
  total: number;
}

const TABS: Record<
  LeadKind,
  { label: string; empty: string; loadError: string; deleted: string; deleteError: string }
> = {
  'quote-requests': {
    label: 'Cotizaciones de Casas',
    empty: 'No hay solicitudes de cotización',
    loadError: 'Error al cargar las cotizaciones',
    deleted: 'Cotización eliminada',
    deleteError: 'No se pudo eliminar la cotización',
  },
  'partner-applications': {
    label: 'Solicitudes de Socios',
    empty: 'No hay solicitudes de socios',
    loadError: 'Error al cargar las solicitudes de socios',
    deleted: 'Solicitud eliminada',
    deleteError: 'No se pudo eliminar la solicitud de socio',
  },
  'quick-quotes': {
    label: 'Cotizaciones rápidas',
    empty: 'No hay cotizaciones rápidas',
    loadError: 'Error al cargar las cotizaciones rápidas',
    deleted: 'Cotización eliminada',
    deleteError: 'No se pudo eliminar la cotización',
  },
};

type Pages = Partial<Record<LeadKind, Page>>;

const VIEWS = ['prospectos', 'llamadas', 'solicitudes', 'notificaciones', 'equipo', 'actividad', 'cuenta'] as const;
type View = (typeof VIEWS)[number];
/** What an adviser sees; the server refuses them the rest anyway (403). */
const ADVISER_VIEWS: readonly View[] = ['prospectos', 'llamadas', 'cuenta'];
const viewOf = (hash: string): View => VIEWS.find((view) => `#${view}` === hash) ?? 'prospectos';

/**
 * /admin: the team's panel. "Prospectos" (one card per person, the default)
 * and "Solicitudes" (every request by form, docs/product.md §15); the view
 * is in the address (#solicitudes), so a reload or a shared link keeps it.
 */
export default function AdminPanel() {
  const member = usePanelUser();
  const email = member?.email ?? null;
  const [view, setView] = useState<View>('prospectos');
  const [pages, setPages] = useState<Pages>({});
  const [active, setActive] = useState<LeadKind>('quote-requests');
  const tabs = useRef<Partial<Record<LeadKind, HTMLButtonElement | null>>>({});

  useEffect(() => {
    const follow = () => setView(viewOf(window.location.hash));
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  const load = useCallback(async (kind: LeadKind, cursor?: string) => {
    const result = await apiCall<Page>(
      `/api/admin/${kind}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    ).catch(() => null);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) {
      showToast({ title: TABS[kind].loadError, variant: 'destructive' });
      return;
    }
    setPages((current) => {
      const previous = cursor ? (current[kind]?.items ?? []) : [];
      const deliveries = cursor ? { ...current[kind]?.deliveries, ...result.body.deliveries } : result.body.deliveries;
      return { ...current, [kind]: { ...result.body, deliveries, items: [...previous, ...result.body.items] } };
    });
  }, []);

  useEffect(() => {
    if (member?.admin && !member.passkeyPending) void Promise.all(LEAD_KINDS.map((kind) => load(kind)));
  }, [member, load]);

  async function remove(kind: LeadKind, id: string) {
    if (!window.confirm('¿Eliminar esta solicitud? Esta acción no se puede deshacer.')) return;
    const result = await apiCall(`/api/admin/${kind}/${id}`, { method: 'DELETE' }).catch(() => null);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) {
      showToast({ title: TABS[kind].deleteError, variant: 'destructive' });
      return;
    }
    setPages((current) => {
      const page = current[kind];
      if (!page) return current;
      return {
        ...current,
        [kind]: { ...page, items: page.items.filter((row) => row.id !== id), total: page.total - 1 },
      };
    });
    showToast({ title: TABS[kind].deleted });
  }

  async function signOut() {
    const result = await apiCall('/api/auth/logout', { method: 'POST' }).catch(() => null);
    if (!result?.ok) {
      showToast({ title: 'Error al cerrar sesión', variant: 'destructive' });
      return;
    }
    goTo('/auth');
  }

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const index = LEAD_KINDS.indexOf(active);
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
    let next: LeadKind | undefined;
    if (event.key in moves)
      next = LEAD_KINDS[(index + (moves[event.key] as number) + LEAD_KINDS.length) % LEAD_KINDS.length];
    if (event.key === 'Home') next = LEAD_KINDS[0];
    if (event.key === 'End') next = LEAD_KINDS.at(-1);
    if (!next) return;
    event.preventDefault();
    setActive(next);
    tabs.current[next]?.focus();
  }

  if (member === null || email === null) {
    return (
      <p className="py-16 text-center text-brand-800" role="status">
        Verificando permisos...
      </p>
    );
  }

  const total = LEAD_KINDS.reduce((sum, kind) => sum + (pages[kind]?.total ?? 0), 0);
  const page = pages[active];
  const allowed = (name: View) =>
    member.passkeyPending ? name === 'cuenta' : member.admin || ADVISER_VIEWS.includes(name);
  const shown: View = allowed(view) ? view : member.passkeyPending ? 'cuenta' : 'prospectos';
  const links: [View, string][] = (
    [
      ['prospectos', 'Prospectos'],
      ['llamadas', 'Llamadas'],
      ['solicitudes', `Solicitudes (${total})`],
      ['notificaciones', 'Notificaciones'],
      ['equipo', 'Equipo'],
      ['actividad', 'Actividad'],
      ['cuenta', 'Mi cuenta'],
    ] as [View, string][]
  ).filter(([name]) => allowed(name));

  return (
    <div className="grid min-w-0 gap-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold sm:text-3xl">Panel de Administración</h1>
          {member.admin && !member.passkeyPending && (
            <span className="rounded-full bg-brand-700 px-3 py-1 text-sm font-bold text-white" data-testid="total">
              {total} solicitudes
            </span>
          )}
        </div>
        <div className="flex items-center gap-2">
          <span className="hidden text-sm text-brand-800 sm:inline">
            {member.name ?? email} · {ROLE_LABELS[member.role]}
          </span>
          <a href="/" className="btn btn-outline min-h-11 px-4 py-2">
            Inicio
          </a>
          <button type="button" className="btn btn-primary min-h-11 px-4 py-2" onClick={signOut}>
            Cerrar sesión
          </button>
        </div>
      </header>

      <nav aria-label="Vistas del panel" className="flex flex-wrap gap-2">
        {links.map(([name, label]) => (
          <a
            key={name}
            href={`#${name}`}
            aria-current={shown === name ? 'page' : undefined}
            className="inline-flex min-h-11 items-center rounded-full px-4 font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-[current=page]:bg-brand-900 aria-[current=page]:text-white"
          >
            {label}
          </a>
        ))}
      </nav>

      {member.passkeyPending && (
        <p role="status" className="rounded-lg bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-700/30">
          Tu equipo exige que los administradores entren con una llave de acceso. Agrega la tuya aquí (o usa la que ya
          tienes), cierra sesión y vuelve a entrar con «Entrar con llave de acceso».
        </p>
      )}

      {shown === 'prospectos' ? (
        <ContactsView canExport={member.admin} />
      ) : shown === 'llamadas' ? (
        <CallsView canExport={member.admin} />
      ) : shown === 'notificaciones' ? (
        <NotificationsView />
      ) : shown === 'equipo' ? (
        <TeamView self={member.id} />
      ) : shown === 'actividad' ? (
        <ActivityView />
      ) : shown === 'cuenta' ? (
        <AccountView />
      ) : (
        <>
          <div
            role="tablist"
            aria-label="Tipos de solicitud"
            className="flex flex-wrap gap-2 border-b border-brand-900/10 pb-2"
          >
            {LEAD_KINDS.map((kind) => (
              <button
                key={kind}
                ref={(node) => {
                  tabs.current[kind] = node;
                }}
                type="button"
                role="tab"
                id={`tab-${kind}`}
                aria-selected={active === kind}
                aria-controls={`panel-${kind}`}
                tabIndex={active === kind ? 0 : -1}
                onClick={() => setActive(kind)}
                onKeyDown={onTabKey}
                className="min-h-11 rounded-full px-4 text-sm font-semibold text-brand-800 hover:bg-brand-900/5 aria-selected:bg-brand-700 aria-selected:text-white"
              >
                {TABS[kind].label} ({pages[kind]?.total ?? 0})
              </button>
            ))}
          </div>

          <section
            role="tabpanel"
            id={`panel-${active}`}
            aria-labelledby={`tab-${active}`}
            className="grid min-w-0 gap-4"
          >
            <div className="flex justify-end">
              <a href={`/api/admin/${active}/export.csv`} download className="btn btn-outline min-h-11 px-4 py-2">
                Descargar CSV
              </a>
            </div>
            {!page ? (
              <p role="status" className="text-brand-800">
                Cargando...
              </p>
            ) : page.items.length === 0 ? (
              <p className="rounded-2xl bg-white p-8 text-center text-brand-800 ring-1 ring-brand-900/10">
                {TABS[active].empty}
              </p>
            ) : (
              <LeadTable
                kind={active}
                rows={page.items}
                deliveries={page.deliveries}
                onDelete={(id) => remove(active, id)}
              />
            )}
            {page?.nextCursor && (
              <button
                type="button"
                className="btn btn-outline justify-self-center"
                onClick={() => load(active, page.nextCursor ?? undefined)}
              >
                Cargar más
              </button>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function LeadTable({
  kind,
  rows,
  deliveries,
  onDelete,
}: {
  kind: LeadKind;
  rows: LeadRow[];
  deliveries: Record<string, DeliveryView[]>;
  onDelete(id: string): void;
}) {
  const columns = COLUMNS[kind].filter((column) => column.inTable);
  return (
    <section
      className="relative overflow-x-auto rounded-2xl bg-white ring-1 ring-brand-900/10"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
      tabIndex={0}
      aria-label={`Tabla de ${TABS[kind].label.toLowerCase()}`}
    >
      <table className="w-full min-w-[72rem] text-left text-sm">
        <thead className="bg-sand-100 text-xs uppercase tracking-wide text-brand-800">
          <tr>
            <th scope="col" className="px-3 py-3">
              Fecha
            </th>
            {columns.map((column) => (
              <th key={column.header} scope="col" className="px-3 py-3">
                {column.header}
              </th>
            ))}
            <th scope="col" className="px-3 py-3">
              Avisos al equipo
            </th>
            <th scope="col" className="px-3 py-3">
              <span className="sr-only">Acciones</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-brand-900/10 align-top">
              <td className="whitespace-nowrap px-3 py-3">{formatShortDate(row.created_at)}</td>
              {columns.map((column) => (
                <td key={column.header} className="max-w-64 break-words px-3 py-3">
                  {column.header === 'Puntaje' ? <ScoreBadge score={Number(row.score)} /> : column.value(row)}
                </td>
              ))}
              <td className="min-w-48 px-3 py-2">
                <DeliveryList deliveries={deliveries[row.id] ?? []} label={`Avisos de la solicitud de ${row.name}`} />
              </td>
              <td className="px-3 py-2">
                <button
                  type="button"
                  onClick={() => onDelete(row.id)}
                  className="min-h-11 rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-600/10"
                  aria-label={`Eliminar solicitud de ${row.name}`}
                >
                  Eliminar
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The partner's score as a percentage; destructive style below the approval threshold. */
function ScoreBadge({ score }: { score: number }) {
  const strong = isStrongScore(score);
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-bold ${strong ? 'bg-brand-100 text-brand-800' : 'bg-danger-600 text-white'}`}
    >
      {scorePercent(score)}%
    </span>
  );
}
