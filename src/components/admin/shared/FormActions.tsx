import type { ReactNode } from 'react';

/** What went wrong with a form, said as it happens (role="alert"); nothing when all is well. */
export function FormError({ error, className = 'field-error' }: { error: ReactNode; className?: string }) {
  if (!error) return null;
  return (
    <p role="alert" className={className}>
      {error}
    </p>
  );
}

/**
 * The end of a panel form: its error (when given), then its buttons, 44 px
 * targets. `align="end"` (a dialog's footer): to the right, "Cancelar" first
 * and the submit button last; `align="start"` (a form inside a view): to the
 * left, the submit button first. `submit` is the button's text (pass the
 * "Guardando…" one while the change is on its way, with `disabled`);
 * `children` stand between the two buttons; without `onCancel` there is no
 * second button.
 */
export function FormActions({
  error,
  submit,
  disabled,
  onCancel,
  cancel = 'Cancelar',
  align = 'end',
  className,
  submitClassName = 'px-4 py-2',
  children,
}: {
  error?: ReactNode;
  submit: ReactNode;
  disabled?: boolean;
  onCancel?: () => void;
  cancel?: ReactNode;
  align?: 'end' | 'start';
  className?: string;
  submitClassName?: string;
  children?: ReactNode;
}) {
  const submitButton = (
    <button type="submit" className={`btn btn-primary min-h-11 ${submitClassName}`} disabled={disabled}>
      {submit}
    </button>
  );
  const cancelButton = onCancel && (
    <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={onCancel}>
      {cancel}
    </button>
  );
  const layout = align === 'end' ? 'flex flex-wrap justify-end gap-2' : 'flex flex-wrap gap-2';
  return (
    <>
      <FormError error={error} />
      <div className={className ? `${layout} ${className}` : layout}>
        {align === 'end' ? cancelButton : submitButton}
        {children}
        {align === 'end' ? submitButton : cancelButton}
      </div>
    </>
  );
}
