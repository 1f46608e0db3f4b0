import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingAnswer, SlotsAnswer } from '../../../lib/appointments/booking.ts';
import type {
  AvailabilityInput,
  AvailabilityView,
  BookingOptions,
  CalendarAnswer,
  PanelBooking,
  TimeOffAdded,
  TimeOffInput,
} from '../../../lib/appointments/panel.ts';
import { api } from '../api.ts';
import { useErasing } from '../contact/queries.ts';
import { keys } from '../keys.ts';

/** A member's (or with `member` '' the default: an adviser's own, an administrator's team) appointments between two Mérida dates. */
export const useCalendar = (from: string, to: string, member: string) =>
  useQuery({
    queryKey: keys.calendar(from, to, member),
    queryFn: () =>
      api<CalendarAnswer>(
        `/api/admin/appointments?from=${from}&to=${to}${member ? `&member=${encodeURIComponent(member)}` : ''}`,
      ),
    placeholderData: (previous) => previous,
  });

/** A contact's appointments, the latest first; not asked while the contact's person is being erased (a 404 then). */
export function useContactAppointments(contactId: string) {
  const erasing = useErasing(contactId);
  return useQuery({
    queryKey: keys.contactAppointments(contactId),
    queryFn: () => api<CalendarAnswer>(`/api/admin/appointments?contact=${encodeURIComponent(contactId)}`),
    enabled: !erasing,
  });
}

/** The kinds and places the booking dialog offers (they change with the data file, rarely). */
export const useBookingOptions = (enabled: boolean) =>
  useQuery({
    queryKey: keys.bookingOptions,
    queryFn: () => api<BookingOptions>('/api/admin/appointments/options'),
    enabled,
    staleTime: 10 * 60_000,
  });

/** The free slots of a kind at a place between two dates of the place's calendar (the public endpoint's). */
export const useSlots = (kind: string, place: string, from: string, to: string) =>
  useQuery({
    queryKey: keys.slots(kind, place, from, to),
    queryFn: () =>
      api<SlotsAnswer>(
        `/api/appointments/slots?kind=${encodeURIComponent(kind)}&place=${encodeURIComponent(place)}&from=${from}&to=${to}`,
      ),
    enabled: Boolean(kind && place),
  });

/**
 * The free slots an appointment may move to (its member's or an administrator's), its own time counting as
 * free; the server leaves out its current start, as stored now.
 */
export const useMoveSlots = (appointmentId: string, from: string, to: string) =>
  useQuery({
    queryKey: keys.moveSlots(appointmentId, from, to),
    queryFn: () => api<SlotsAnswer>(`/api/admin/appointments/${appointmentId}/slots?from=${from}&to=${to}`),
  });

/**
 * Books for a contact: their calendar, the calendars and their page (the history's new line) are asked
 * again, and what the booking moves elsewhere: Hoy's appointments, the lists' and the pipeline's state
 * ("Visita agendada") and the figures.
 */
export const useBookForContact = (contactId: string) =>
  useMutation({
    mutationFn: (booking: PanelBooking) =>
      api<BookingAnswer & { contactId: string }>('/api/admin/appointments', { method: 'POST', json: booking }),
    meta: {
      invalidates: [keys.appointments, keys.contact(contactId), keys.today, keys.contacts, keys.pipeline, keys.metrics],
    },
  });

/** A member's availability ('' : one's own). */
export const useAvailability = (member: string) =>
  useQuery({
    queryKey: keys.availability(member),
    queryFn: () =>
      api<AvailabilityView>(`/api/admin/availability${member ? `?member=${encodeURIComponent(member)}` : ''}`),
  });

export function useSaveAvailability(member: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: AvailabilityInput }) =>
      api<AvailabilityView>(`/api/admin/availability/${id}`, { method: 'PATCH', json: input }),
    onSuccess: (view) => client.setQueryData(keys.availability(member), view),
  });
}

export const useAddTimeOff = (member: string) =>
  useMutation({
    mutationFn: ({ id, input }: { id: string; input: TimeOffInput }) =>
      api<TimeOffAdded>(`/api/admin/availability/${id}/time-off`, { method: 'POST', json: input }),
    meta: { invalidates: [keys.availability(member)] },
  });

export const useRemoveTimeOff = (member: string) =>
  useMutation({
    mutationFn: ({ id, timeOff }: { id: string; timeOff: string }) =>
      api(`/api/admin/availability/${id}/time-off/${timeOff}`, { method: 'DELETE' }),
    meta: { invalidates: [keys.availability(member)], errorTitle: 'No se pudo quitar la ausencia' },
  });
