import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { type ContactDetail, counted } from '../../../lib/admin/contacts.ts';
import { flashToast } from '../../../lib/client/flash.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { api, explain, goTo } from '../api.ts';
import { keys } from '../keys.ts';
import { BusyButton } from '../shared/ui.tsx';
import { useOpposition } from './queries.ts';

/**
 * The person's rights of access, cancellation and opposition (ARCO), for
 * administrators: everything stored about them as JSON or CSV, erasing them
 * whole after a confirmation that says what goes, and their opposition to
 * promotions and the ad platforms when they ask for it by e-mail or phone.
 */
export function PersonalData({ contact }: { contact: ContactDetail }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const erase = useMutation({
    mutationKey: keys.erasePerson(contact.id),
    mutationFn: () => api(`/api/admin/contacts/${contact.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      flashToast({ title: 'Persona eliminada', description: 'Se borraron todos sus datos.' });
      goTo('/admin');
    },
    onError: (error) => {
      dialog.current?.close();
      showToast({ title: 'No se pudo eliminar a la persona', description: explain(error), variant: 'destructive' });
    },
  });
  const oppose = useOpposition(contact.id);
  const calls = contact.timeline.filter((entry) => entry.type === 'call').length;
  const notes = contact.timeline.filter((entry) => entry.type === 'note').length;

  return (
    <section
      aria-labelledby="personal-data-title"
      className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10"
    >
      <h2 id="personal-data-title" className="text-xl font-bold">
        Datos personales (derechos ARCO)
      </h2>
      <p className="text-sm text-brand-800">
        Si la persona pide sus datos, descárgalos y envíaselos. Si pide su cancelación, elimínala: se borra todo lo suyo
        y queda constancia en Actividad.
      </p>
      <div className="grid gap-2 rounded-xl bg-sand-50 p-3">
        <p className="text-sm text-brand-900">
          {contact.marketingConsent
            ? 'Aceptó recibir novedades y promociones: lo que haga puede enviarse a las plataformas de anuncios (Meta, Google). Si pide que no, registra su oposición.'
            : contact.marketingOpposed
              ? 'No comparte sus datos con plataformas de anuncios: nada de lo que haga se les envía.'
              : 'No ha aceptado compartir sus datos con plataformas de anuncios. Si pide que nunca se compartan, registra su oposición.'}
        </p>
        {!contact.marketingOpposed && (
          <BusyButton
            busy={oppose.isPending}
            busyText="Registrando…"
            className="btn btn-outline min-h-11 justify-self-start px-4 py-2"
            onClick={() => oppose.mutate()}
          >
            Registrar oposición a promociones y anuncios
          </BusyButton>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <a
          href={`/api/admin/contacts/${contact.id}/datos.json`}
          download
          className="btn btn-outline min-h-11 px-4 py-2"
        >
          Descargar datos (JSON)
        </a>
        <a href={`/api/admin/contacts/${contact.id}/datos.csv`} download className="btn btn-outline min-h-11 px-4 py-2">
          Descargar datos (CSV)
        </a>
        <button
          type="button"
          className="btn min-h-11 bg-danger-600 px-4 py-2 text-white hover:bg-red-800"
          onClick={() => dialog.current?.showModal()}
        >
          Eliminar a esta persona
        </button>
      </div>
      <dialog
        ref={dialog}
        aria-labelledby="erase-title"
        className="m-auto w-[min(28rem,calc(100vw-1.5rem))] rounded-3xl bg-sand-50 p-6 text-brand-900 shadow-2xl backdrop:bg-brand-900/60"
      >
        <h2 id="erase-title" className="text-lg font-bold">
          ¿Eliminar a {contact.name}?
        </h2>
        <p className="mt-2">
          Se borrarán {counted(contact.requests, 'solicitud', 'solicitudes')}, {counted(calls, 'llamada', 'llamadas')},{' '}
          {counted(notes, 'nota', 'notas')}, su historial, sus mensajes de WhatsApp y sus avisos. No se puede deshacer.
        </p>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={() => dialog.current?.close()}>
            Cancelar
          </button>
          <button
            type="button"
            className="btn min-h-11 bg-danger-600 px-4 py-2 text-white hover:bg-red-800"
            disabled={erase.isPending}
            onClick={() => erase.mutate()}
          >
            {erase.isPending ? 'Eliminando...' : 'Eliminar todo'}
          </button>
        </div>
      </dialog>
    </section>
  );
}
