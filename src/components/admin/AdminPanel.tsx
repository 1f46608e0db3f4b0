import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LEAD_KINDS } from '../../lib/admin/columns.ts';
import { ROLE_LABELS } from '../../lib/admin/team.ts';
import { AccountView } from './account/AccountView.tsx';
import { ActivityView } from './activity/ActivityView.tsx';
import { api, goTo, SIGN_IN_PAGE } from './api.ts';
import { CallsView } from './calls/CallsView.tsx';
import { ContactsView } from './contacts/ContactsView.tsx';
import { NotificationsView } from './notifications/NotificationsView.tsx';
import { PanelQueries } from './query.tsx';
import { RemindersBadge } from './reminders/RemindersBadge.tsx';
import { useLeadPages } from './requests/queries.ts';
import { RequestsView } from './requests/RequestsView.tsx';
import { type PanelUser, usePanelUser } from './session.ts';
import { Loading } from './shared/ui.tsx';
import { TeamView } from './team/TeamView.tsx';

const VIEWS = ['prospectos', 'llamadas', 'solicitudes', 'notificaciones', 'equipo', 'actividad', 'cuenta'] as const;
type View = (typeof VIEWS)[number];
/** What an adviser sees; the server refuses them the rest anyway (403). */
const ADVISER_VIEWS: readonly View[] = ['prospectos', 'llamadas', 'cuenta'];
const viewOf = (hash: string): View => VIEWS.find((view) => `#${view}` === hash) ?? 'prospectos';

/** The island of /admin: the panel with the page's cache. */
export default function AdminPanelIsland() {
  return (
    <PanelQueries>
      <AdminPanel />
    </PanelQueries>
  );
}

/**
 * /admin: the team's panel. "Prospectos" (one card per person, the default)
 * and "Solicitudes" (every request by form, docs/product.md §15); the view
 * is in the address (#solicitudes), so a reload or a shared link keeps it.
 */
export function AdminPanel() {
  const member = usePanelUser();
  const [view, setView] = useState<View>('prospectos');
  const pages = useLeadPages(member?.admin === true && !member.passkeyPending);
  const signOut = useMutation({
    mutationFn: () => api('/api/auth/logout', { method: 'POST' }),
    onSuccess: () => goTo(SIGN_IN_PAGE),
    meta: { errorTitle: 'Error al cerrar sesión' },
  });

  useEffect(() => {
    const follow = () => setView(viewOf(window.location.hash));
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  if (member === null) return <Loading text="Verificando permisos..." page />;

  const total = LEAD_KINDS.reduce((sum, kind) => sum + (pages[kind]?.total ?? 0), 0);
  const allowed = (name: View) =>
    member.passkeyPending ? name === 'cuenta' : member.admin || ADVISER_VIEWS.includes(name);
  const shown: View = allowed(view) ? view : member.passkeyPending ? 'cuenta' : 'prospectos';
  const links = (
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
      {!member.passkeyPending && <RemindersBadge />}

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

      <ViewOf shown={shown} member={member} pages={pages} />
    </div>
  );
}

function ViewOf({ shown, member, pages }: { shown: View; member: PanelUser; pages: ReturnType<typeof useLeadPages> }) {
  switch (shown) {
    case 'prospectos':
      return <ContactsView canExport={member.admin} canSelect={member.admin} />;
    case 'llamadas':
      return <CallsView canExport={member.admin} />;
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
