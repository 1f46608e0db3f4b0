import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { BookingAnswer } from '../../lib/appointments/booking.ts';
import { BOOKING_MESSAGES, PICKER_WORDS as W } from '../../lib/appointments/words.ts';
import { readAttribution } from '../../lib/client/attribution.ts';
import { AppointmentFields } from './AppointmentFields.tsx';
import { SlotsView, useSlots } from './slots.tsx';
import { momentOf } from './time.ts';

/** A kind as the picker offers it (src/data/appointments.ts, pickerKinds()). */
export interface PickerKind {
  id: string;
  name: string;
  description: string;
  priceMxn: number | null;
  durationMinutes: number;
  horizonDays: number;
  places: { id: string; name: string; timeZone: string }[];
}

interface Props {
  /** The kinds offered here, the first chosen unless the opening button says another (`data-kind`). */
  kinds: PickerKind[];
  /** The existing payment link, for a paid kind's "por pagar" (issue #40, item 6). */
  paymentLink: string;
  /**
   * The privacy notice's version the page shows (PRIVACY_NOTICE_VERSION), sent with the booking as the
   * forms send it; a prop, so the island does not split src/data/legal.ts out of the forms' shared chunk.
   */
  privacyVersion: string;
  idPrefix?: string;
}

/**
 * The public booking (issue #40, decision 0059): kind (when there are
 * several), place, day and time (SlotPicker), then name, WhatsApp and an
 * optional e-mail; POST /api/appointments with an Idempotency-Key kept for
 * one set of answers. A slot taken meanwhile (409) reloads the slots and
 * keeps what was typed. The fields' rules are the server's (booking.ts's
 * schema): its 400 names each field in Spanish.
 */
export default function BookingPicker({ kinds, paymentLink, privacyVersion, idPrefix = 'cita-' }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const [kindId, setKindId] = useState(kinds[0]?.id ?? '');
  const kind = kinds.find((entry) => entry.id === kindId) ?? kinds[0];
  const [placeId, setPlaceId] = useState(kind?.places[0]?.id ?? '');
  const place = kind?.places.find((entry) => entry.id === placeId) ?? kind?.places[0];
  const [selected, setSelected] = useState<string | null>(null);
  const [slots, reload] = useSlots(kind, place);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<BookingAnswer | null>(null);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  // The button that opened the dialog names the kind (data-kind, written by AppointmentDialog's script).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, then on every opening; choose() only sets state
  useEffect(() => {
    const dialog = root.current?.closest('dialog');
    if (!dialog) return;
    const follow = () => {
      const wanted = kinds.find((entry) => entry.id === dialog.dataset.kind);
      if (wanted) choose(wanted.id);
    };
    follow();
    dialog.addEventListener('appointment-kind', follow);
    return () => dialog.removeEventListener('appointment-kind', follow);
  }, []);

  useEffect(() => {
    if (done) doneHeading.current?.focus();
  }, [done]);

  // A place the new kind does not offer falls back to its first (`place` above).
  function choose(id: string) {
    setKindId(id);
    setSelected(null);
    setProblem('');
    // Opened again for another kind after a booking: the picker for that kind, not the booking's summary.
    setDone((booked) => (booked && booked.kind !== id ? null : booked));
  }

  if (!kind || !place) return null;

  if (done) {
    const held = done.status === 'por_pagar';
    // What was booked, whatever is chosen now.
    const bookedKind = kinds.find((entry) => entry.id === done.kind) ?? kind;
    const bookedPlace = bookedKind.places.find((entry) => entry.id === done.place) ?? place;
    return (
      <div ref={root} className="grid gap-4" data-booked={done.id}>
        <h3 ref={doneHeading} tabIndex={-1} className="text-2xl font-bold">
          {held ? W.heldTitle : W.confirmedTitle}
        </h3>
        <dl className="grid gap-1 rounded-2xl bg-brand-50 p-4">
          <dt className="sr-only">{W.kind}</dt>
          <dd className="font-bold">{bookedKind.name}</dd>
          <dt className="sr-only">{W.place}</dt>
          <dd>{bookedPlace.name}</dd>
          <dt className="sr-only">{W.day}</dt>
          <dd className="font-semibold first-letter:uppercase">{momentOf(done.start, bookedPlace.timeZone)}</dd>
          <dt className="sr-only">Estado</dt>
          <dd>
            <span className="inline-block rounded-full bg-white px-3 py-1 text-sm font-bold">
              {W.status[done.status] ?? done.status}
              {done.priceMxn !== null && ` · ${W.price(done.priceMxn)}`}
            </span>
          </dd>
        </dl>
        <p className="text-brand-800">
          {held && done.holdUntil ? W.heldText(momentOf(done.holdUntil, bookedPlace.timeZone)) : W.confirmedText}
        </p>
        <div className="flex flex-col gap-3 sm:flex-row">
          {held && (
            // Online payments (issue #41): our page /pagar, then Stripe's; otherwise the site's payment link.
            <a
              href={done.payUrl ?? paymentLink}
              {...(done.payUrl ? {} : { target: '_blank', rel: 'noopener' })}
              className="btn btn-accent"
            >
              {W.pay}
            </a>
          )}
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => {
              setDone(null);
              setSelected(null);
              reload();
            }}
          >
            {W.another}
          </button>
        </div>
      </div>
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !kind || !place) return;
    const form = event.currentTarget;
    if (!selected) {
      setErrors({});
      setProblem(W.noTime);
      // The first day to choose (not the kind's or the place's radios, which come first in the form).
      form.querySelector<HTMLInputElement>(`input[name="${idPrefix}day"]`)?.focus();
      return;
    }
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '');
    const values = {
      name: text('name'),
      phone: text('phone'),
      email: text('email'),
      kind: kind.id,
      place: place.id,
      start: selected,
    };
    const body = JSON.stringify(values);
    if (attempt.current?.body !== body) attempt.current = { body, key: crypto.randomUUID() };
    setBusy(true);
    setProblem('');
    setErrors({});
    let status = 0;
    let answer: Partial<BookingAnswer> & { error?: string; code?: string; fields?: Record<string, string> } = {};
    try {
      const response = await fetch('/api/appointments', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': attempt.current.key },
        body: JSON.stringify({
          ...values,
          privacy_version: privacyVersion,
          privacy_accepted_at: new Date().toISOString(),
          ...readAttribution(),
        }),
      });
      status = response.status;
      answer = await response.json().catch(() => ({}));
    } catch {
      // No answer: the same answers sent again reuse the key, so nothing is booked twice.
    }
    setBusy(false);
    if (status === 201) {
      attempt.current = null;
      setDone(answer as BookingAnswer);
      return;
    }
    if (status === 400 && answer.fields) {
      setErrors(answer.fields);
      const first = Object.keys(answer.fields)[0];
      form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      setProblem(answer.error ?? BOOKING_MESSAGES.invalid);
      return;
    }
    if (status === 409 && answer.code === 'slot_taken') {
      setSelected(null);
      setProblem(W.takenReloaded);
      reload();
      return;
    }
    setProblem(answer.error ?? BOOKING_MESSAGES.failure);
  }

  return (
    <div ref={root}>
      <form
        className="grid gap-6"
        noValidate
        method="post"
        action="/api/appointments"
        onSubmit={submit}
        aria-busy={busy || undefined}
      >
        {kinds.length > 1 && (
          <Choice
            legend={W.kind}
            name={`${idPrefix}kind`}
            value={kind.id}
            onChange={choose}
            options={kinds.map((entry) => ({
              value: entry.id,
              label: entry.name,
              note: `${W.duration(entry.durationMinutes)} · ${entry.priceMxn === null ? W.free : W.price(entry.priceMxn)}`,
            }))}
          />
        )}
        {kinds.length === 1 && (
          <p className="text-brand-800">
            <strong className="text-brand-900">{kind.name}</strong> ·{' '}
            {`${W.duration(kind.durationMinutes)} · ${kind.priceMxn === null ? W.free : W.price(kind.priceMxn)}`}
          </p>
        )}
        {kind.places.length > 1 && (
          <Choice
            legend={W.place}
            name={`${idPrefix}place`}
            value={place.id}
            onChange={(id) => {
              setPlaceId(id);
              setSelected(null);
              setProblem('');
            }}
            options={kind.places.map((entry) => ({ value: entry.id, label: entry.name }))}
          />
        )}
        {kind.places.length === 1 && (
          <p>
            <span className="field-label">{W.place}: </span>
            {place.name}
          </p>
        )}
        <SlotsView slots={slots} reload={reload} selected={selected} onSelect={setSelected} idPrefix={idPrefix} />
        <AppointmentFields idPrefix={idPrefix} errors={errors} />
        <div className="grid gap-3">
          <p className="text-sm text-brand-700">
            {W.privacy}
            <a href="/aviso-de-privacidad" className="font-semibold text-brand-800 underline underline-offset-2">
              {W.privacyLink}
            </a>
            .
          </p>
          {problem && (
            <p role="alert" className="field-error">
              {problem}
            </p>
          )}
          <button
            type="submit"
            className="btn btn-primary w-full sm:w-auto"
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {busy ? W.busy : kind.priceMxn === null ? W.submit : `${W.submitPaid} · ${W.price(kind.priceMxn)}`}
          </button>
        </div>
      </form>
    </div>
  );
}

/** A small radio group of cards: the kind, the place. */
function Choice({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: string;
  options: { value: string; label: string; note?: string }[];
  onChange(value: string): void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="field-label mb-2">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label key={option.value} className="choice">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
            <span>
              <span className="block font-semibold">{option.label}</span>
              {option.note && <span className="block text-sm text-brand-700">{option.note}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
