import { BusyButton } from '../shared/ui.tsx';
import { useClaim } from './queries.ts';

/**
 * "Tomar": an unassigned contact becomes the member's (the contact's page and
 * each card of the list place it with one line). Nothing shows once someone
 * follows the contact. What became of the press is a toast (useClaim): the
 * card may leave the list meanwhile ("Sin asignar"); when another adviser took
 * it first, the server's «Otro asesor ya tomó este prospecto.».
 */
export function ClaimButton({
  contact,
  className = '',
}: {
  contact: { id: string; name: string; assignedTo: { id: string; name: string } | null };
  className?: string;
}) {
  const claim = useClaim(contact.id, contact.name);
  if (contact.assignedTo) return null;
  return (
    <BusyButton
      busy={claim.isPending}
      busyText="Tomando…"
      className={`btn btn-primary min-h-11 justify-self-start px-4 py-2 ${className}`}
      label={`Tomar a ${contact.name}`}
      onClick={() => claim.mutate()}
    >
      Tomar
    </BusyButton>
  );
}
