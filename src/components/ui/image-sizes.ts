/**
 * An image at the top of a card in a grid of three columns, two on a tablet
 * and one on a phone (the models' cards, the gallery's slides): the widths
 * made of it and the `sizes` that picks one.
 */
export const CARD_IMAGE = {
  widths: [400, 600, 800],
  sizes: '(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw',
};
