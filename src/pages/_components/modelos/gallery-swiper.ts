/**
 * Swiper for the gallery of /modelos, loaded only when the gallery comes near
 * the screen (Gallery.astro's data-near-screen, decision 0031): its code and
 * its stylesheet stay off the first screen, and the page has no script file. The four modules are imported by name, so the build keeps only them
 * (a namespace import of 'swiper/modules' pulled in every effect).
 */
import Swiper from 'swiper';
import swiperCss from 'swiper/css?inline';
import { A11y, Keyboard, Navigation, Pagination } from 'swiper/modules';

/**
 * Swiper's stylesheet travels in this file and is adopted as a constructed
 * stylesheet: a plain `import 'swiper/css'` puts it into the page's own
 * stylesheet, ahead of the first paint; a constructed sheet needs no request
 * and no CSP hash (the policy governs <style> elements, not the CSSOM).
 */
function adoptSwiperCss() {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(swiperCss);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

export default function startGallery(gallery: HTMLElement): Swiper {
  adoptSwiperCss();
  // Swiper's buttons and keyboard module take over from the scrollable row.
  gallery.querySelector('.swiper-wrapper')?.removeAttribute('tabindex');
  return new Swiper(gallery, {
    modules: [A11y, Keyboard, Navigation, Pagination],
    slidesPerView: 1,
    spaceBetween: 16,
    breakpoints: { 640: { slidesPerView: 2 }, 1024: { slidesPerView: 3 } },
    keyboard: { enabled: true, onlyInViewport: true },
    navigation: { prevEl: '.gallery-prev', nextEl: '.gallery-next' },
    pagination: { el: '.gallery-pagination', clickable: true },
    a11y: {
      prevSlideMessage: 'Imagen anterior',
      nextSlideMessage: 'Imagen siguiente',
      firstSlideMessage: 'Primera imagen',
      lastSlideMessage: 'Última imagen',
      paginationBulletMessage: 'Ir a la imagen {{index}}',
      containerRoleDescriptionMessage: 'carrusel',
      itemRoleDescriptionMessage: 'diapositiva',
      slideLabelMessage: '{{index}} de {{slidesLength}}',
    },
  });
}
