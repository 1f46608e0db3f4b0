import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { LEAD_KINDS } from '../../lib/admin/columns.ts';
import { ROLE_LABELS } from '../../lib/admin/team.ts';
import { api, goTo, SIGN_IN_PAGE } from './api.ts';
import { UnreadBadge, UnreadLink } from './conversations/UnreadBadge.tsx';
import { PanelQueries } from './query.tsx';
import { RemindersBadge } from './reminders/RemindersBadge.tsx';
import { useLeadPages } from './requests/queries.ts';
import { type PanelUser, usePanelUser } from './session.ts';
import { PanelLink } from './shared/PanelLink.tsx';
import { Loading } from './shared/ui.tsx';
import { setUrlParams, useUrlParams } from './shared/url.ts';
import { TodayView } from './today/TodayView.tsx';

// Hoy, the default view, comes with the page; the others load when opened (the panel's first touch stays light:
// bench:bundle's /admin budget).
const AccountView = lazy(() => import('./account/AccountView.tsx').then((m) => ({ default: m.AccountView })));
const ActivityView = lazy(() => import('./activity/ActivityView.tsx').then((m) => ({ default: m.ActivityView })));
const ConversationsView = lazy(() =>
  import('./conversations/ConversationsView.tsx').then((m) => ({ default: m.ConversationsView })),
);
const CalendarView = lazy(() => import('./appointments/CalendarView.tsx').then((m) => ({ default: m.CalendarView })));
const AvailabilityView = lazy(() =>
  import('./appointments/AvailabilityView.tsx').then((m) => ({ default: m.AvailabilityView })),
);
const PaymentsView = lazy(() => import('./payments/PaymentsView.tsx').then((m) => ({ default: m.PaymentsView })));
const ContactsView = lazy(() => import('./contacts/ContactsView.tsx').then((m) => ({ default: m.ContactsView })));
const CallsView = lazy(() => import('./calls/CallsView.tsx').then((m) => ({ default: m.CallsView })));
const MetricsView = lazy(() => import('./metrics/MetricsView.tsx').then((m) => ({ default: m.MetricsView })));
const PipelineView = lazy(() => import('./pipeline/PipelineView.tsx').then((m) => ({ default: m.PipelineView })));
const NotificationsView = lazy(() =>
  import('./notifications/NotificationsView.tsx').then((m) => ({ default: m.NotificationsView })),
);
const RequestsView = lazy(() => import('./requests/RequestsView.tsx').then((m) => ({ default: m.RequestsView })));
const TeamView = lazy(() => import('./team/TeamView.tsx').then((m) => ({ default: m.TeamView })));

const VIEWS = [
  'hoy',
  'agenda',
  'disponibilidad',
  'prospectos',
  'conversaciones',
  'embudo',
  'llamadas',
  'pagos',
  'metricas',
  'solicitudes',
  'notificaciones',
  'equipo',
  'actividad',
  'cuenta',
] as const;
type View = (typeof VIEWS)[number];
/** What an adviser does not see; the server refuses them these anyway (403). */
const ADMIN_VIEWS: readonly View[] = ['solicitudes', 'notificaciones', 'equipo', 'actividad'];
const viewOf = (name: string | null): View => VIEWS.find((view) => view === name) ?? 'hoy';

/** The island of /admin: the panel with the page's cache. */
export default function AdminPanelIsland() {
  return (
    <PanelQueries>
      <AdminPanel />
    </PanelQueries>
  );
}

/**
 * /admin: the team's panel. "Hoy" (the day's list, the default: issue #26),
 * "Prospectos" (one card per person), "Métricas" and "Solicitudes" (every
 * request by form, docs/product.md §15); the view and its filters are in the
 * address (?vista=solicitudes), so a reload, Back or a shared link keeps them.
 */
export function AdminPanel() {
  const member = usePanelUser();
  const view = viewOf(useUrlParams().get('vista'));
  const pages = useLeadPages(member?.admin === true && !member.passkeyPending);
  const signOut = useMutation({
    mutationFn: () => api('/api/auth/logout', { method: 'POST' }),
    onSuccess: () => goTo(SIGN_IN_PAGE),
    meta: { errorTitle: 'Error al cerrar sesión' },
  });

  // The addresses of before (/admin#solicitudes) still open their view.
  useEffect(() => {
    const legacy = () => {
      const name = window.location.hash.slice(1);
      if (VIEWS.includes(name as View)) setUrlParams({ vista: name });
    };
    legacy();
    window.addEventListener('hashchange', legacy);
    return () => window.removeEventListener('hashchange', legacy);
  }, []);

  if (member === null) return <Loading text="Verificando permisos..." page />;

  const total = LEAD_KINDS.reduce((sum, kind) => sum + (pages[kind]?.total ?? 0), 0);
  const allowed = (name: View) =>
    member.passkeyPending ? name === 'cuenta' : member.admin || !ADMIN_VIEWS.includes(name);
  const shown: View = allowed(view) ? view : member.passkeyPending ? 'cuenta' : 'hoy';
  const links = (
    [
      ['hoy', 'Hoy'],
      ['agenda', 'Agenda'],
      ['prospectos', 'Prospectos'],
      ['conversaciones', 'Conversaciones'],
      ['embudo', 'Embudo'],
      ['llamadas', 'Llamadas'],
      ['pagos', 'Pagos'],
      ['metricas', 'Métricas'],
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
              {total.toLocaleString('es-MX')} {total === 1 ? 'solicitud' : 'solicitudes'}
            </span>
          )}
        </div>
        <div className="flex items-center gap-2">
          <span className="hidden text-sm text-brand-800 sm:inline">
            {member.name ?? member.email} · {ROLE_LABELS[member.role]}
          </span>
          <a href="/" className="btn btn-outline min-h-11 px-4 py-2">
            Inicio
          </a>
          <button type="button" className="btn btn-primary min-h-11 px-4 py-2" onClick={() => signOut.mutate()}>
            Cerrar sesión
          </button>
        </div>
      </header>
      {!member.passkeyPending && (
        <div className="flex flex-wrap items-center gap-2">
          <RemindersBadge />
          <UnreadLink enabled />
        </div>
      )}

      {/* One scrolling row on a phone (the day's list starts on the first screen), wrapped from 640 px; `relative`
          holds the badges' screen-reader words (absolutely placed) inside the row, not past the page's edge. */}
      <nav
        aria-label="Vistas del panel"
        className="relative -mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0"
      >
        {links.map(([name, label]) => (
          <PanelLink
            key={name}
            href={`/admin?vista=${name}`}
            current={shown === name || (name === 'agenda' && shown === 'disponibilidad')}
            className="inline-flex min-h-11 shrink-0 items-center rounded-full px-4 font-semibold whitespace-nowrap text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-[current=page]:bg-brand-900 aria-[current=page]:text-white"
          >
            {label}
            {name === 'conversaciones' && <UnreadBadge enabled={!member.passkeyPending} />}
          </PanelLink>
        ))}
      </nav>

      {member.passkeyPending && (
        <p role="status" className="rounded-lg bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-700/30">
          Tu equipo exige que los administradores entren con una llave de acceso. Agrega la tuya aquí (o usa la que ya
          tienes), cierra sesión y vuelve a entrar con «Entrar con llave de acceso».
        </p>
      )}

      <Suspense fallback={<Loading text="Cargando…" />}>
        <ViewOf shown={shown} member={member} pages={pages} />
      </Suspense>
    </div>
  );
}

function ViewOf({ shown, member, pages }: { shown: View; member: PanelUser; pages: ReturnType<typeof useLeadPages> }) {
  switch (shown) {
    case 'hoy':
      return <TodayView admin={member.admin} />;
    case 'agenda':
      return <CalendarView admin={member.admin} self={member.id} />;
    case 'disponibilidad':
      return <AvailabilityView admin={member.admin} />;
    case 'prospectos':
      return <ContactsView canExport={member.admin} canSelect={member.admin} />;
    case 'conversaciones':
      return <ConversationsView admin={member.admin} />;
    case 'embudo':
      return <PipelineView />;
    case 'metricas':
      return <MetricsView />;
    case 'llamadas':
      return <CallsView canExport={member.admin} />;
    case 'pagos':
      return <PaymentsView canExport={member.admin} />;
    case 'solicitudes':
      return <RequestsView pages={pages} />;
    case 'notificaciones':
      return <NotificationsView />;
    case 'equipo':
      return <TeamView self={member.id} />;
    case 'actividad':
      return <ActivityView />;
    case 'cuenta':
      return <AccountView />;
  }
}
