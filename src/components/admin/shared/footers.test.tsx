// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { FormActions } from './FormActions.tsx';
import { ListFooter } from './ListFooter.tsx';

afterEach(cleanup);

const names = () => screen.getAllByRole('button').map((button) => button.textContent);

test('a dialog’s footer: its error as an alert, then "Cancelar" and the submit button last', async () => {
  const cancel = vi.fn();
  const submit = vi.fn((event: Event) => event.preventDefault());
  render(
    <form onSubmit={(event) => submit(event.nativeEvent)}>
      <FormActions error="No se pudo guardar." onCancel={cancel} submit="Guardar">
        <button type="button">Otra</button>
      </FormActions>
    </form>,
  );
  expect(screen.getByRole('alert').textContent).toBe('No se pudo guardar.');
  expect(names()).toEqual(['Cancelar', 'Otra', 'Guardar']);
  await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
  expect([cancel.mock.calls.length, submit.mock.calls.length]).toEqual([1, 0]);
  await userEvent.click(screen.getByRole('button', { name: 'Guardar' }));
  expect(submit).toHaveBeenCalledTimes(1);
});

test('a form in a view: the submit button first, no alert without an error, disabled while saving', () => {
  render(<FormActions align="start" submit="Aplicando…" disabled onCancel={() => {}} cancel="Quitar selección" />);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(names()).toEqual(['Aplicando…', 'Quitar selección']);
  expect((screen.getByRole('button', { name: 'Aplicando…' }) as HTMLButtonElement).disabled).toBe(true);
});

test('a list’s footer: "Mostrando N de M" while part is shown, "Cargar más" named for its list', async () => {
  const more = vi.fn();
  const { rerender } = render(<ListFooter shown={1200} total={1500} more loading={false} onMore={more} of="Nuevo" />);
  expect(screen.getByText('Mostrando 1,200 de 1,500')).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Cargar más de Nuevo' }));
  expect(more).toHaveBeenCalledTimes(1);
  rerender(<ListFooter shown={1500} total={1500} more={false} loading={false} onMore={more} />);
  expect(screen.queryByText(/Mostrando/)).toBeNull();
  expect(screen.queryByRole('button')).toBeNull();
});

test('a list’s footer while the next page is on its way: disabled, in its own words when it has them', () => {
  render(<ListFooter more loading onMore={() => {}} loadingText="Cargando..." />);
  const button = screen.getByRole('button') as HTMLButtonElement;
  expect([button.textContent, button.disabled]).toEqual(['Cargando...', true]);
});
