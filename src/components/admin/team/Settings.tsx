import type { TeamView as Team, TeamSettingsChange } from '../../../lib/admin/team.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { card, Section } from '../shared/ui.tsx';
import { useTeamSettings } from './queries.ts';

/** "Ajustes del equipo": round-robin assignment and the passkey requirement. */
export function Settings({ team }: { team: Team }) {
  return (
    <Section title="Ajustes del equipo" className={`grid gap-2 ${card}`}>
      <SettingToggle
        checked={team.roundRobin}
        label="Asignar cada prospecto nuevo, por turnos, a los asesores activos"
        change={{ roundRobin: !team.roundRobin }}
        done={team.roundRobin ? 'Asignación por turnos desactivada' : 'Asignación por turnos activada'}
      />
      <SettingToggle
        checked={team.adminPasskeyRequired}
        label="Exigir llave de acceso a los administradores (con contraseña solo llegan a «Mi cuenta»)"
        change={{ adminPasskeyRequired: !team.adminPasskeyRequired }}
        done={
          team.adminPasskeyRequired
            ? 'Ya no se exige llave de acceso'
            : 'Los administradores deberán entrar con su llave de acceso'
        }
      />
    </Section>
  );
}

/** One of the team's settings: a checkbox saved at once, with the server's reason when it refuses. */
function SettingToggle({
  checked,
  label,
  change,
  done,
}: {
  checked: boolean;
  label: string;
  change: TeamSettingsChange;
  done: string;
}) {
  const save = useTeamSettings();
  return (
    <label className="flex min-h-11 items-center gap-3">
      <input
        type="checkbox"
        className="size-5 shrink-0 accent-brand-700"
        checked={checked}
        disabled={save.isPending}
        onChange={() => save.mutate(change, { onSuccess: () => showToast({ title: done }) })}
      />
      <span>{label}</span>
    </label>
  );
}
