import type { ReactNode } from 'react';
import { SlotPicker } from '../../appointments/SlotPicker.tsx';
import { explain } from '../api.ts';
import type { useMoveSlots, useSlots } from './queries.ts';

/**
 * The free slots of a panel dialog (booking, moving): loading, a failure
 * with "Reintentar", none (`empty` says what to do), or the picker on the
 * place's clock.
 */
export function FreeSlots({
  slots,
  selected,
  onSelect,
  idPrefix,
  empty,
}: {
  slots: ReturnType<typeof useSlots> | ReturnType<typeof useMoveSlots>;
  selected: string;
  onSelect(start: string): void;
  idPrefix: string;
  empty: ReactNode;
}) {
  if (slots.isError)
    return (
      <p role="alert">
        {explain(slots.error, 'No se pudieron cargar los horarios.')}{' '}
        <button type="button" className="btn btn-outline min-h-11 px-3 py-2" onClick={() => void slots.refetch()}>
          Reintentar
        </button>
      </p>
    );
  if (!slots.data) return <p role="status">Buscando horarios libres…</p>;
  if (slots.data.slots.length === 0)
    return (
      <p role="status" className="rounded-xl bg-sand-100 p-3">
        {empty}
      </p>
    );
  return (
    <SlotPicker
      slots={slots.data.slots}
      timeZone={slots.data.timeZone}
      selected={selected || null}
      onSelect={onSelect}
      idPrefix={idPrefix}
    />
  );
}
