/**
 * Money as the site writes it, in whole Mexican pesos: one formatter for the
 * buyer's pages, the panel, the e-mails and the messages. Browser-safe.
 */
const PESOS = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', maximumFractionDigits: 0 });

/** "$229,000" */
export const formatPesos = (amount: number): string => PESOS.format(amount);

/** "$229,000 MXN" */
export const formatMxn = (amount: number): string => `${formatPesos(amount)} MXN`;
