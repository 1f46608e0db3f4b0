import { LIMITS } from '../../../lib/forms/fields.ts';
import { TextField } from '../../forms/fields.tsx';

/**
 * A contact's phone as the team types it ("Nuevo prospecto", "Editar datos"),
 * checked by the schemas' one phone rule (`requiredPhone`, src/lib/forms/fields.ts).
 */
export function PhoneField({
  error,
  defaultValue,
  placeholder,
}: {
  error?: string | undefined;
  defaultValue?: string;
  placeholder?: string;
}) {
  return (
    <TextField
      name="phone"
      label="Teléfono"
      type="tel"
      inputMode="tel"
      required
      autoComplete="off"
      hint="10 dígitos."
      maxLength={LIMITS.phoneInput}
      error={error}
      defaultValue={defaultValue}
      placeholder={placeholder}
    />
  );
}
