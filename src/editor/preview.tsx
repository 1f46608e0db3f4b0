import type { ReactNode } from 'react';
import { z } from 'zod';
import { type CatalogueToken, catalogueValues, fillCatalogueTokens, formatMxn } from '../data/catalogue.ts';
import { modelSchema, siteSchema } from '../data/schemas.ts';
import type { Content } from './validate.ts';

/**
 * The previews beside the form, updated as marketing types: each shows the
 * data as its page does (the same sections, order, classes and texts, the
 * catalogue's tokens filled in from the models as they are now), styled by
 * the site's own stylesheet (src/styles/global.css, compiled for the editor
 * by src/editor/build.ts as /editor/preview.css). decap-cms renders them in
 * its preview frame with the entry's data.
 */

interface PreviewProps {
  entry: { getIn: (path: string[]) => unknown };
  getAsset: (path: string) => { toString(): string } | undefined;
}

type Getter = () => Content;

/** The stylesheet the previews use: the site's own, compiled for the editor (src/editor/build.ts). */
export const PREVIEW_STYLESHEET = '/editor/preview.css';

/** The content as this editor session knows it (src/editor/main.tsx's, updated by each save). */
let currentContent: Getter = () => ({ data: {}, legal: [] });

/** The entry's data under `key` as plain values. */
function dataOf<T>(entry: PreviewProps['entry'], key?: string): T | undefined {
  const value = entry.getIn(key ? ['data', key] : ['data']) as { toJS?: () => T } | undefined;
  return value?.toJS ? value.toJS() : (value as T | undefined);
}

const byOrder = <T extends { order?: number }>(items: readonly T[]) =>
  [...items].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));

/** The tokens' values for the catalogue as it is now; none when it does not pass its schema. */
function tokenValues(content: Content): Record<CatalogueToken, string> | undefined {
  const models = z.array(modelSchema).min(1).safeParse(content.data.models);
  const site = siteSchema.safeParse(content.data.site);
  return models.success && site.success ? catalogueValues(models.data, site.data.startingPrice) : undefined;
}

/** A text as the page shows it: its tokens filled in. */
function filler(content: Content): (text: string | undefined) => string {
  const values = tokenValues(content);
  return (text) => (text === undefined ? '' : values ? fillCatalogueTokens(text, values) : text);
}

function Frame({ page, children }: { page: string; children: ReactNode }) {
  return (
    <main className="bg-sand-50 font-sans text-brand-900">
      {/* Here, not registerPreviewStyle: the site's reset would strip decap's own previews (legal pages) of their headings. */}
      <link rel="stylesheet" href={PREVIEW_STYLESHEET} />
      <p className="bg-brand-900 px-4 py-2 text-sm font-semibold text-sand-100">Vista previa de {page}</p>
      {children}
    </main>
  );
}

interface ModelData {
  id?: string;
  order?: number;
  name?: string;
  priceFromMxn?: number;
  sizeM2?: number;
  capacity?: number;
  delivery?: string;
  description?: string;
  features?: string[];
  image?: string;
  imageAlt?: string;
}

/** /modelos: the models' cards (name, "desde" price, size, people, delivery, features, photo). */
export function ModelsPreview({ entry, getAsset }: PreviewProps) {
  const models = byOrder(dataOf<ModelData[]>(entry, 'models') ?? []);
  return (
    <Frame page="/modelos">
      <ul className="mx-auto grid max-w-6xl grid-cols-2 gap-4 px-4 py-8">
        {models.map((model, index) => (
          <li
            key={model.id ?? index}
            data-preview-model={model.id}
            className="flex flex-col overflow-hidden rounded-3xl bg-white ring-1 ring-brand-900/10"
          >
            {model.image ? (
              <img
                src={getAsset(model.image)?.toString()}
                alt={model.imageAlt ?? ''}
                className="aspect-[3/2] w-full object-cover"
              />
            ) : null}
            <div className="flex flex-1 flex-col gap-2 p-5">
              <h2 className="text-xl font-bold">{model.name}</h2>
              <p className="model-price font-bold text-terracotta-700">
                {typeof model.priceFromMxn === 'number' ? `Desde ${formatMxn(model.priceFromMxn)}` : 'Sin precio'}
              </p>
              <p className="text-sm text-brand-800">
                {model.sizeM2} m² · {model.capacity} personas · Entrega en {model.delivery?.replace('-', ' a ')}
              </p>
              <p className="text-brand-800">{model.description}</p>
              <ul className="list-disc pl-5 text-sm text-brand-800">
                {(model.features ?? []).map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ul>
    </Frame>
  );
}

interface GalleryImage {
  id?: string;
  order?: number;
  kind?: string;
  image?: string;
  alt?: string;
}

/** The /modelos gallery: its images in their order, each with Interior/Exterior and its description. */
export function GalleryPreview({ entry, getAsset }: PreviewProps) {
  const images = byOrder(dataOf<GalleryImage[]>(entry, 'images') ?? []);
  return (
    <Frame page="la galería de /modelos">
      <section className="mx-auto max-w-6xl px-4 py-8">
        <p className="text-sm text-brand-800">{images.length} imágenes, en el orden del carrusel.</p>
        <ol className="mt-4 grid grid-cols-2 gap-3">
          {images.map((image, index) => (
            <li key={image.id ?? index} data-preview-image={image.id}>
              <figure className="overflow-hidden rounded-3xl bg-white ring-1 ring-brand-900/10">
                {image.image ? (
                  <img
                    src={getAsset(image.image)?.toString()}
                    alt={image.alt ?? ''}
                    className="aspect-[4/3] w-full object-cover"
                  />
                ) : null}
                <figcaption className="flex items-center gap-2 px-4 py-3 text-sm">
                  <span className="rounded-full bg-brand-100 px-2.5 py-0.5 text-xs font-bold uppercase tracking-wider text-brand-800">
                    {image.kind === 'interior' ? 'Interior' : 'Exterior'}
                  </span>
                  <span className="line-clamp-1 text-brand-800">
                    {index + 1}. {image.alt}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ol>
      </section>
    </Frame>
  );
}

interface Card {
  title?: string;
  text?: string;
  cta?: string;
  badge?: string;
}
interface LandingData {
  hero?: {
    eyebrow?: string;
    title?: string;
    subtitle?: string;
    highlights?: string[];
    buttons?: { buy?: string; estimate?: string; advisor?: string };
  };
  paths?: { title?: string; subtitle?: string; models?: Card; estimate?: Card; advisor?: Card };
  sellingPoints?: { title?: string; subtitle?: string };
  method?: { eyebrow?: string; title?: string; paragraphs?: string[]; facts?: { value?: string; label?: string }[] };
  cycle?: { title?: string; subtitle?: string };
  partners?: { eyebrow?: string; title?: string; paragraphs?: string[]; facts?: string[]; cta?: string };
  quote?: { text?: string; role?: string };
}
interface ListItem {
  id?: string;
  order?: number;
  title?: string;
  text?: string;
  payment?: string | null;
}

function SellingPointsSection({ title, subtitle, points, fill }: SectionProps & { points: ListItem[] }) {
  return (
    <section className="bg-brand-900 text-sand-100" data-preview-section="sellingPoints">
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h2 className="max-w-2xl text-3xl font-bold tracking-tight">{fill(title)}</h2>
        <p className="mt-3 max-w-2xl text-lg text-sand-100/85">{fill(subtitle)}</p>
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {byOrder(points).map((point, index) => (
            <li key={point.id ?? index} className="rounded-3xl bg-white/5 p-6 ring-1 ring-white/10">
              <h3 className="text-lg font-bold">{fill(point.title)}</h3>
              <p className="mt-2 text-sand-100/85">{fill(point.text)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

interface SectionProps {
  title?: string;
  subtitle?: string;
  fill: (text: string | undefined) => string;
}

function CycleSection({ title, subtitle, steps, fill }: SectionProps & { steps: ListItem[] }) {
  return (
    <section className="bg-sand-200/50" data-preview-section="cycle">
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h2 className="max-w-2xl text-3xl font-bold tracking-tight">{fill(title)}</h2>
        <p className="mt-3 max-w-2xl text-lg text-brand-800">{fill(subtitle)}</p>
        <ol className="mt-8 grid gap-4 md:grid-cols-5">
          {byOrder(steps).map((step, index) => (
            <li
              key={step.id ?? index}
              className="flex flex-col gap-2 rounded-3xl bg-white p-5 ring-1 ring-brand-900/10"
            >
              <span className="inline-flex size-10 items-center justify-center rounded-full bg-brand-700 font-bold text-white">
                {step.order}
              </span>
              <h3 className="font-bold">{fill(step.title)}</h3>
              <p className="flex-1 text-sm text-brand-800">{fill(step.text)}</p>
              {step.payment ? (
                <p className="self-start rounded-full bg-terracotta-500/15 px-3 py-1 text-sm font-bold text-terracotta-700">
                  {step.payment}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function PathCard({ card, fill, accent }: { card?: Card; fill: SectionProps['fill']; accent?: boolean }) {
  return (
    <li
      className={`relative flex flex-col gap-4 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-brand-900/10 ${accent ? 'ring-2 ring-terracotta-500' : ''}`}
    >
      {card?.badge ? (
        <span className="absolute -top-3 right-6 rounded-full bg-terracotta-700 px-3 py-1 text-xs font-bold uppercase tracking-wider text-white">
          {fill(card.badge)}
        </span>
      ) : null}
      <h3 className="text-xl font-bold">{fill(card?.title)}</h3>
      <p className="flex-1 text-brand-800">{fill(card?.text)}</p>
      <span className={`btn self-start ${accent ? 'btn-accent' : 'btn-outline'}`}>{fill(card?.cta)}</span>
    </li>
  );
}

/** The home page, section by section, with the selling points and steps as they are now. */
export function LandingPreview({ entry }: PreviewProps) {
  const current = currentContent();
  const fill = filler(current);
  const copy = dataOf<LandingData>(entry) ?? {};
  const founder = (current.data.site as { founder?: { name?: string } } | undefined)?.founder?.name;
  return (
    <Frame page="la portada (/)">
      <section className="bg-gradient-to-b from-sand-100 to-sand-50" data-preview-section="hero">
        <div className="mx-auto max-w-6xl space-y-6 px-4 py-10">
          <p className="eyebrow">{fill(copy.hero?.eyebrow)}</p>
          <h1 className="text-4xl font-extrabold leading-[1.08] tracking-tight">{fill(copy.hero?.title)}</h1>
          <p className="max-w-xl text-lg leading-relaxed text-brand-800">{fill(copy.hero?.subtitle)}</p>
          <ul className="flex flex-wrap gap-2">
            {(copy.hero?.highlights ?? []).map((highlight) => (
              <li
                key={highlight}
                className="inline-flex items-center gap-1.5 rounded-full bg-white px-3 py-1.5 text-sm font-semibold text-brand-800 shadow-sm ring-1 ring-brand-900/10"
              >
                {fill(highlight)}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-3">
            <span className="btn btn-primary">{fill(copy.hero?.buttons?.buy)}</span>
            <span className="btn btn-accent">{fill(copy.hero?.buttons?.estimate)}</span>
            <span className="btn btn-outline">{fill(copy.hero?.buttons?.advisor)}</span>
          </div>
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-12" data-preview-section="paths">
        <h2 className="text-3xl font-bold tracking-tight">{fill(copy.paths?.title)}</h2>
        <p className="mt-3 text-lg text-brand-800">{fill(copy.paths?.subtitle)}</p>
        <ul className="mt-8 grid gap-5 md:grid-cols-3">
          <PathCard card={copy.paths?.models} fill={fill} />
          <PathCard card={copy.paths?.estimate} fill={fill} accent />
          <PathCard card={copy.paths?.advisor} fill={fill} />
        </ul>
      </section>
      <SellingPointsSection
        title={copy.sellingPoints?.title}
        subtitle={copy.sellingPoints?.subtitle}
        points={(current.data.sellingPoints as ListItem[] | undefined) ?? []}
        fill={fill}
      />
      <section className="mx-auto max-w-6xl px-4 py-12" data-preview-section="method">
        <p className="eyebrow">{fill(copy.method?.eyebrow)}</p>
        <h2 className="mt-2 text-3xl font-bold tracking-tight">{fill(copy.method?.title)}</h2>
        {(copy.method?.paragraphs ?? []).map((paragraph) => (
          <p key={paragraph} className="mt-4 max-w-2xl text-lg text-brand-800">
            {fill(paragraph)}
          </p>
        ))}
        <dl className="mt-6 grid max-w-2xl grid-cols-3 gap-4">
          {(copy.method?.facts ?? []).map((fact) => (
            <div key={`${fact.value}${fact.label}`} className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
              <dt className="text-2xl font-extrabold text-brand-700">{fill(fact.value)}</dt>
              <dd className="text-sm text-brand-800">{fill(fact.label)}</dd>
            </div>
          ))}
        </dl>
      </section>
      <CycleSection
        title={copy.cycle?.title}
        subtitle={copy.cycle?.subtitle}
        steps={(current.data.steps as ListItem[] | undefined) ?? []}
        fill={fill}
      />
      <section className="mx-auto max-w-6xl px-4 py-12" data-preview-section="partners">
        <p className="eyebrow">{fill(copy.partners?.eyebrow)}</p>
        <h2 className="mt-2 text-3xl font-bold tracking-tight">{fill(copy.partners?.title)}</h2>
        {(copy.partners?.paragraphs ?? []).map((paragraph) => (
          <p key={paragraph} className="mt-4 max-w-2xl text-lg text-brand-800">
            {fill(paragraph)}
          </p>
        ))}
        <ul className="mt-4 list-disc pl-5 text-brand-800">
          {(copy.partners?.facts ?? []).map((fact) => (
            <li key={fact}>{fill(fact)}</li>
          ))}
        </ul>
        <span className="btn btn-primary mt-6">{fill(copy.partners?.cta)}</span>
      </section>
      <section className="mx-auto max-w-4xl px-4 pb-16 pt-4 text-center" data-preview-section="quote">
        <blockquote className="text-2xl font-semibold leading-snug text-brand-900">
          <p>{fill(copy.quote?.text)}</p>
        </blockquote>
        <p className="mt-5 text-brand-700">
          <span className="font-bold">{founder}</span>, {fill(copy.quote?.role)}
        </p>
      </section>
    </Frame>
  );
}

/** The home page's selling points section, with this file's points. */
export function SellingPointsPreview({ entry }: PreviewProps) {
  const current = currentContent();
  const copy = (current.data.landing as LandingData | undefined)?.sellingPoints;
  return (
    <Frame page="la portada (/): «¿Por qué construir con Ceiba?»">
      <SellingPointsSection
        title={copy?.title}
        subtitle={copy?.subtitle}
        points={dataOf<ListItem[]>(entry, 'points') ?? []}
        fill={filler(current)}
      />
    </Frame>
  );
}

/** The home page's purchase cycle, with this file's steps. */
export function StepsPreview({ entry }: PreviewProps) {
  const current = currentContent();
  const copy = (current.data.landing as LandingData | undefined)?.cycle;
  return (
    <Frame page="la portada (/): ciclo de compra">
      <CycleSection
        title={copy?.title}
        subtitle={copy?.subtitle}
        steps={dataOf<ListItem[]>(entry, 'steps') ?? []}
        fill={filler(current)}
      />
    </Frame>
  );
}

interface PreviewRegistry {
  registerPreviewTemplate(name: string, component: unknown): void;
}

/** The previews of the files that have one; the others show decap-cms's own list of fields. */
export function registerPreviews(cms: PreviewRegistry, content: Getter): void {
  currentContent = content;
  cms.registerPreviewTemplate('models', ModelsPreview);
  cms.registerPreviewTemplate('gallery', GalleryPreview);
  cms.registerPreviewTemplate('landing', LandingPreview);
  cms.registerPreviewTemplate('sellingPoints', SellingPointsPreview);
  cms.registerPreviewTemplate('steps', StepsPreview);
}
