/**
 * The end of a list that comes in pages: "Mostrando N de M" while part of it
 * is shown (when the list knows its `total`), and "Cargar más" while there is
 * a next page (`more`), disabled while it is on its way (`loading`, with
 * `loadingText` when the button says so). `of`: which of several lists on one
 * page, said to a screen reader only ("Cargar más de Nuevo").
 */
export function ListFooter({
  shown,
  total,
  more,
  loading,
  onMore,
  of,
  loadingText,
  countClassName = 'text-sm text-brand-800',
  className = 'btn btn-outline justify-self-center',
}: {
  shown?: number;
  total?: number;
  more: boolean;
  loading: boolean;
  onMore(): void;
  of?: string;
  loadingText?: string;
  countClassName?: string;
  className?: string;
}) {
  return (
    <>
      {shown !== undefined && total !== undefined && shown < total && (
        <p className={countClassName}>
          Mostrando {shown.toLocaleString('es-MX')} de {total.toLocaleString('es-MX')}
        </p>
      )}
      {more && (
        <button type="button" className={className} disabled={loading} onClick={onMore}>
          {loading && loadingText ? loadingText : 'Cargar más'}
          {of && <span className="sr-only"> de {of}</span>}
        </button>
      )}
    </>
  );
}
