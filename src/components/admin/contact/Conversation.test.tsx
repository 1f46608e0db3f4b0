// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type PanelApi, startPanelApi } from '../../../../tests/support/panel-api.ts';
import { renderPanel } from '../../../../tests/support/panel-render.tsx';
import type { ContactDetail } from '../../../lib/admin/contacts.ts';
import type { MessagePage, WhatsappMessage, WhatsappState } from '../../../lib/whatsapp/contract.ts';
import { Conversation } from './Conversation.tsx';

let api: PanelApi;
beforeAll(async () => {
  api = await startPanelApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const CONTACT = {
  id: '0b7c3a5e-2d4f-4c6b-8a9e-1f2d3c4b5a69',
  name: 'Ana Canul',
  timeline: [],
} as unknown as ContactDetail;
const MEMBER = { id: 'a1b2c3d4-0000-4000-8000-000000000001', admin: false };
const MESSAGES = `/api/admin/contacts/${CONTACT.id}/whatsapp/messages`;

const message = (id: number, fields: Partial<WhatsappMessage>): WhatsappMessage => ({
  id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  contactId: CONTACT.id,
  direction: 'in',
  kind: 'text',
  body: `Mensaje ${id}`,
  media: null,
  location: null,
  replyTo: null,
  status: 'received',
  statusAt: '2026-11-24T15:00:00.000Z',
  error: null,
  templateName: null,
  sentBy: null,
  automated: false,
  createdAt: '2026-11-24T15:00:00.000Z',
  ...fields,
});

const CLOSED: WhatsappState = {
  configured: true,
  window: { open: false, lastInboundAt: '2026-11-22T15:00:00.000Z', closesAt: '2026-11-23T15:00:00.000Z' },
  optedOutAt: null,
  allowed: { text: false, templates: true },
  reason: 'Pasaron más de 24 horas desde su último mensaje: solo puedes enviarle una plantilla aprobada.',
  templates: [
    {
      name: 'retomar_conversacion',
      label: 'Retomar la conversación',
      language: 'es_MX',
      body: 'Hola {nombre}, ¿sigues interesado?',
      preview: 'Hola Ana, ¿sigues interesado?',
    },
  ],
};

describe('the conversation on the contact’s page', () => {
  test('one stream: the history’s notes, calls and changes between the bubbles in time order; older ones with older messages', async () => {
    const timeline: ContactDetail['timeline'] = [
      {
        type: 'request',
        at: '2026-11-22T14:00:00.000Z',
        form: 'cotizacion_rapida',
        kind: 'quick-quotes',
        id: 'r1r1r1r1-0000-4000-8000-000000000001',
        fields: [['Teléfono', '999 123 4567']],
        deliveries: [],
      },
      {
        type: 'call',
        at: '2026-11-23T04:00:00.000Z',
        id: 'c2c2c2c2-0000-4000-8000-000000000001',
        durationSeconds: 75,
        endedReason: 'customer-ended-call',
        summary: 'Preguntó por el modelo Lumo',
      },
      {
        type: 'note',
        at: '2026-11-24T18:10:00.000Z',
        id: 'n3n3n3n3-0000-4000-8000-000000000001',
        author: 'Marisol',
        authorId: MEMBER.id,
        body: 'Le mandé el plano',
      },
      {
        type: 'event',
        at: '2026-11-24T18:20:00.000Z',
        kind: 'state',
        actor: 'Marisol',
        from: 'nuevo',
        to: 'contactado',
      },
    ];
    const latest: MessagePage = {
      messages: [
        message(3, {
          direction: 'out',
          status: 'read',
          body: '¿Lo pudiste ver?',
          createdAt: '2026-11-24T18:30:00.000Z',
        }),
        message(2, { body: 'Mándame el plano', createdAt: '2026-11-24T18:00:00.000Z' }),
      ],
      nextCursor: 'antes',
    };
    const older: MessagePage = {
      messages: [message(1, { body: 'Hola, vi su anuncio', createdAt: '2026-11-23T05:00:00.000Z' })],
      nextCursor: null,
    };
    api.on(`GET ${MESSAGES}`, ({ url }) => ({ body: url.searchParams.get('before') === 'antes' ? older : latest }));
    api.on(`POST /api/admin/contacts/${CONTACT.id}/whatsapp/read`, { status: 204 });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: CLOSED });
    renderPanel(
      api,
      <Conversation contact={{ ...CONTACT, timeline }} member={MEMBER} />,
      `/admin/prospecto?id=${CONTACT.id}`,
    );
    const log = await screen.findByRole('log', { name: 'Conversación e historial de Ana Canul' });
    await within(log).findByText('¿Lo pudiste ver?');
    const rows = () =>
      [...log.querySelectorAll('li[data-message], li[data-entry]')].map((row) =>
        row.hasAttribute('data-message')
          ? `${row.classList.contains('justify-end') ? 'ours' : 'theirs'}: ${row.querySelector('p.whitespace-pre-wrap')?.textContent}`
          : `${row.getAttribute('data-entry')}`,
      );
    // The latest page: the note and the state change sit between her message and ours; nothing older than the page yet.
    expect(rows()).toEqual(['theirs: Mándame el plano', 'note', 'event', 'ours: ¿Lo pudiste ver?']);
    expect(within(log).getByText('Estado: Nuevo → Contactado')).toBeTruthy();
    expect(within(log).queryByText(/Llamada con el agente de voz/)).toBeNull();
    // Her own note offers «Eliminar».
    expect(within(log).getByRole('button', { name: /^Eliminar nota/ })).toBeTruthy();

    await userEvent.click(within(log).getByRole('button', { name: 'Cargar anteriores' }));
    await within(log).findByText('Hola, vi su anuncio');
    expect(rows()).toEqual([
      'request',
      'call',
      'theirs: Hola, vi su anuncio',
      'theirs: Mándame el plano',
      'note',
      'event',
      'ours: ¿Lo pudiste ver?',
    ]);
    // Day separators in Mérida: the call at 04:00 UTC and her message at 05:00 UTC on the 23rd are the 22nd's evening there.
    expect(
      within(log)
        .getAllByText(/de noviembre de 2026$/)
        .map((day) => day.textContent),
    ).toEqual(['domingo, 22 de noviembre de 2026', 'martes, 24 de noviembre de 2026']);
  });

  test('the messages failing to load leave the history whole, with the reason and a retry', async () => {
    api.on(`GET ${MESSAGES}`, { status: 500, body: { error: 'Falla' } });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: CLOSED });
    const timeline: ContactDetail['timeline'] = [
      { type: 'event', at: '2026-11-24T18:20:00.000Z', kind: 'state', actor: null, from: 'nuevo', to: 'contactado' },
    ];
    renderPanel(
      api,
      <Conversation contact={{ ...CONTACT, timeline }} member={MEMBER} />,
      `/admin/prospecto?id=${CONTACT.id}`,
    );
    const log = await screen.findByRole('log', { name: 'Conversación e historial de Ana Canul' });
    expect(await within(log).findByText('No se pudieron cargar los mensajes de WhatsApp.')).toBeTruthy();
    expect(within(log).getByText('Estado: Nuevo → Contactado')).toBeTruthy();
    expect(within(log).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });

  test('the instant first reply says “Respuesta automática” once; a next contact in the history says its year', async () => {
    const timeline: ContactDetail['timeline'] = [
      {
        type: 'event',
        at: '2026-11-24T18:20:00.000Z',
        kind: 'next_contact',
        actor: 'Marisol',
        from: '2026-11-20',
        to: '2027-01-05T16:00:00.000Z',
      },
    ];
    const latest: MessagePage = {
      messages: [
        // As the server sent it before issue #38: the automated reply also named itself as its sender.
        message(1, {
          direction: 'out',
          status: 'delivered',
          body: 'Hola Ana, gracias por escribir a Ceiba',
          templateName: 'primer_contacto',
          automated: true,
          sentBy: { id: null, name: 'Respuesta automática' },
          createdAt: '2026-11-24T18:00:00.000Z',
        }),
      ],
      nextCursor: null,
    };
    api.on(`GET ${MESSAGES}`, { body: latest });
    api.on(`POST /api/admin/contacts/${CONTACT.id}/whatsapp/read`, { status: 204 });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: CLOSED });
    renderPanel(
      api,
      <Conversation contact={{ ...CONTACT, timeline }} member={MEMBER} />,
      `/admin/prospecto?id=${CONTACT.id}`,
    );
    const log = await screen.findByRole('log', { name: 'Conversación e historial de Ana Canul' });
    const bubble = (await within(log).findByText('Hola Ana, gracias por escribir a Ceiba')).closest('li');
    expect(bubble?.textContent?.match(/Respuesta automática/g)).toHaveLength(1);
    expect(within(log).getByText('Próximo contacto: 20 nov 2026 → 5 ene 2027, 10:00 a.m.')).toBeTruthy();
  });

  test('bubbles by day in Mérida, a failure’s reason, media as links; older ones on “Cargar anteriores”', async () => {
    const latest: MessagePage = {
      messages: [
        message(3, {
          direction: 'out',
          status: 'failed',
          body: 'Hola <b>Ana</b>',
          error: { code: 131047, reason: 'Pasaron más de 24 horas: envía una plantilla.' },
          createdAt: '2026-11-24T18:30:00.000Z',
        }),
        message(2, {
          kind: 'document',
          body: '',
          media: { url: '/api/admin/whatsapp/media/x', mime: 'application/pdf', filename: 'plano.pdf' },
          createdAt: '2026-11-24T18:00:00.000Z',
        }),
      ],
      nextCursor: 'antes',
    };
    const older: MessagePage = { messages: [message(1, { createdAt: '2026-11-23T05:00:00.000Z' })], nextCursor: null };
    api.on(`GET ${MESSAGES}`, ({ url }) => ({ body: url.searchParams.get('before') === 'antes' ? older : latest }));
    api.on(`POST /api/admin/contacts/${CONTACT.id}/whatsapp/read`, { status: 204 });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: CLOSED });
    renderPanel(api, <Conversation contact={CONTACT} member={MEMBER} />, `/admin/prospecto?id=${CONTACT.id}`);
    const log = await screen.findByRole('log', { name: 'Conversación e historial de Ana Canul' });
    expect(await within(log).findByText('Hola <b>Ana</b>')).toBeTruthy();
    expect(within(log).getByText('Pasaron más de 24 horas: envía una plantilla.')).toBeTruthy();
    expect(within(log).getByText(/No se envió/)).toBeTruthy();
    expect(
      within(log)
        .getByRole('link', { name: /Descargar plano.pdf/ })
        .getAttribute('href'),
    ).toBe('/api/admin/whatsapp/media/x');
    expect(within(log).getByText('martes, 24 de noviembre de 2026')).toBeTruthy();
    await waitFor(() => expect(api.requests).toContain(`POST /api/admin/contacts/${CONTACT.id}/whatsapp/read`));
    await userEvent.click(within(log).getByRole('button', { name: 'Cargar anteriores' }));
    // 05:00 UTC on the 23rd is 23:00 of the 22nd in Mérida.
    expect(await within(log).findByText('Mensaje 1')).toBeTruthy();
    expect(within(log).getByText('domingo, 22 de noviembre de 2026')).toBeTruthy();
    expect(within(log).queryByRole('button', { name: 'Cargar anteriores' })).toBeNull();
  });

  test('a first reply held by the daily limit says so on the bubble and in the history (issue #38)', async () => {
    const held: MessagePage = {
      messages: [
        message(1, {
          direction: 'out',
          kind: 'template',
          status: 'held',
          automated: true,
          templateName: 'primer_contacto',
          body: 'Hola Ana, gracias por escribir a Ceiba Casas Modulares.',
          error: { code: null, reason: 'No se envió: hoy ya se enviaron todas las respuestas automáticas permitidas.' },
          createdAt: '2026-11-24T18:30:00.000Z',
        }),
      ],
      nextCursor: null,
    };
    const timeline: ContactDetail['timeline'] = [
      {
        type: 'event',
        at: '2026-11-24T18:30:00.000Z',
        kind: 'whatsapp_held',
        actor: null,
        from: null,
        to: 'Respuesta automática',
      },
    ];
    api.on(`GET ${MESSAGES}`, { body: held });
    api.on(`POST /api/admin/contacts/${CONTACT.id}/whatsapp/read`, { status: 204 });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: CLOSED });
    renderPanel(
      api,
      <Conversation contact={{ ...CONTACT, timeline }} member={MEMBER} />,
      `/admin/prospecto?id=${CONTACT.id}`,
    );
    const log = await screen.findByRole('log', { name: 'Conversación e historial de Ana Canul' });
    expect(await within(log).findByText(/Retenida: escríbele tú/)).toBeTruthy();
    expect(within(log).getByText(/hoy ya se enviaron todas las respuestas automáticas/)).toBeTruthy();
    expect(within(log).getByText(/la respuesta automática no se envió \(límite diario alcanzado\)/)).toBeTruthy();
  });

  test('an appointment’s messages in the history: an e-mail sent, one not sent and why, a template held (issue #40)', async () => {
    const event = (at: string, kind: string, from: string | null, to: string, detail: string | null = null) => ({
      type: 'event' as const,
      at,
      kind,
      actor: null,
      from,
      to,
      detail,
    });
    const timeline: ContactDetail['timeline'] = [
      event(
        '2026-11-24T18:30:00.000Z',
        'appointment_message',
        'Confirmación de la cita por correo',
        'enviado',
        'ana@example.com',
      ),
      event(
        '2026-11-24T18:31:00.000Z',
        'appointment_message',
        'Recordatorio de la cita (24 h antes) por correo',
        'no_enviado',
        'El servidor SMTP rechazó el mensaje',
      ),
      event('2026-11-24T18:32:00.000Z', 'whatsapp_held', null, 'Recordatorio de la cita'),
    ];
    api.on(`GET ${MESSAGES}`, { body: { messages: [], nextCursor: null } });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: CLOSED });
    renderPanel(
      api,
      <Conversation contact={{ ...CONTACT, timeline }} member={MEMBER} />,
      `/admin/prospecto?id=${CONTACT.id}`,
    );
    const log = await screen.findByRole('log', { name: 'Conversación e historial de Ana Canul' });
    expect(await within(log).findByText('Enviado: Confirmación de la cita por correo a ana@example.com')).toBeTruthy();
    expect(
      within(log).getByText(
        'No se envió: Recordatorio de la cita (24 h antes) por correo (El servidor SMTP rechazó el mensaje)',
      ),
    ).toBeTruthy();
    expect(within(log).getByText(/«Recordatorio de la cita» no se envió \(límite diario/)).toBeTruthy();
  });

  test('outside the window: only templates, the reason why, and the message shown at once as “Enviando”', async () => {
    const posted: unknown[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.on(`GET ${MESSAGES}`, { body: { messages: [], nextCursor: null } });
    api.on(`POST /api/admin/contacts/${CONTACT.id}/whatsapp/read`, { status: 204 });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: CLOSED });
    api.on(`POST ${MESSAGES}`, async ({ body }) => {
      posted.push(body);
      await held;
      return {
        status: 202,
        body: {
          message: message(9, {
            direction: 'out',
            kind: 'template',
            status: 'sending',
            body: 'Hola Ana, ¿sigues interesado?',
          }),
        },
      };
    });
    renderPanel(api, <Conversation contact={CONTACT} member={MEMBER} />, `/admin/prospecto?id=${CONTACT.id}`);
    expect(await screen.findByText(CLOSED.reason as string)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Mensaje' })).toBeNull();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Plantilla' }), 'retomar_conversacion');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar plantilla' }));
    const log = screen.getByRole('log');
    expect(await within(log).findByText('Hola Ana, ¿sigues interesado?')).toBeTruthy();
    expect(within(log).getByText(/Enviando/)).toBeTruthy();
    expect(posted[0]).toMatchObject({ kind: 'template', template: 'retomar_conversacion' });
    release();
    await waitFor(() => expect(within(log).getAllByText('Hola Ana, ¿sigues interesado?')).toHaveLength(1));
  });

  test('inside the window: “Horarios disponibles” sends the list, shown with its days and times (issue #40)', async () => {
    const OPEN: WhatsappState = {
      ...CLOSED,
      window: { open: true, lastInboundAt: '2026-11-24T15:00:00.000Z', closesAt: '2026-11-25T15:00:00.000Z' },
      allowed: { text: true, templates: true },
      reason: null,
      slotOptions: [
        {
          appointment: 'visita-casa-muestra',
          place: 'casa-muestra-merida',
          label: 'Visita a la casa muestra · Casa muestra Mérida',
        },
        {
          appointment: 'asesoria-personalizada',
          place: 'videollamada',
          label: 'Asesoría personalizada · Videollamada',
        },
      ],
    };
    const posted: unknown[] = [];
    api.on(`GET ${MESSAGES}`, { body: { messages: [], nextCursor: null } });
    api.on(`GET /api/admin/whatsapp/quick-replies`, { body: { quickReplies: [] } });
    api.on(`POST /api/admin/contacts/${CONTACT.id}/whatsapp/read`, { status: 204 });
    api.on(`GET /api/admin/contacts/${CONTACT.id}/whatsapp`, { body: OPEN });
    api.on(`POST ${MESSAGES}`, ({ body }) => {
      posted.push(body);
      return {
        status: 202,
        body: {
          message: message(10, {
            direction: 'out',
            kind: 'interactive',
            status: 'sending',
            body: 'Hola Ana. Estos son los próximos horarios libres para «Visita a la casa muestra».',
            sentBy: { id: MEMBER.id, name: 'Carla Pech' },
            list: {
              button: 'Ver horarios',
              footer: 'Horarios en hora de Mérida',
              sections: [
                {
                  title: 'Sábado 6 de marzo',
                  rows: [{ title: 'sáb 6 mar · 10:00', description: 'Visita a la casa muestra' }],
                },
                {
                  title: 'Lunes 8 de marzo',
                  rows: [
                    { title: 'lun 8 mar · 09:00', description: 'Visita a la casa muestra' },
                    { title: 'lun 8 mar · 11:00', description: 'Visita a la casa muestra' },
                  ],
                },
              ],
            },
          }),
        },
      };
    });
    renderPanel(api, <Conversation contact={CONTACT} member={MEMBER} />, `/admin/prospecto?id=${CONTACT.id}`);
    await userEvent.click(await screen.findByText('Horarios disponibles'));
    const form = screen.getByRole('form', { name: 'Enviar horarios disponibles por WhatsApp' });
    const send = within(form).getByRole('button', { name: 'Enviar horarios' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    await userEvent.selectOptions(
      within(form).getByRole('combobox', { name: 'Tipo de cita y lugar' }),
      'Visita a la casa muestra · Casa muestra Mérida',
    );
    await userEvent.click(send);
    await waitFor(() =>
      expect(posted[0]).toMatchObject({
        kind: 'slots',
        appointment: 'visita-casa-muestra',
        place: 'casa-muestra-merida',
      }),
    );
    const log = screen.getByRole('log');
    const monday = await within(log).findByRole('list', { name: 'Lunes 8 de marzo' });
    expect(
      within(monday)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['lun 8 mar · 09:00', 'lun 8 mar · 11:00']);
    expect(within(log).getByText('Ver horarios')).toBeTruthy();
    expect(within(log).getByText('sáb 6 mar · 10:00')).toBeTruthy();
  });
});
