import { useId } from 'react';
import {
  TODAY_SECTION_EMPTY,
  TODAY_SECTION_LABELS,
  type TodayScope,
  type TodaySection,
  type TodaySectionPage,
} from '../../../lib/admin/today.ts';
import { ContactCard } from '../contacts/ContactCard.tsx';
import { ListFooter } from '../shared/ListFooter.tsx';
import { useMoreOfSection } from './queries.ts';

/** One section of "Hoy": its heading with the number it counts, its cards, and "Cargar más" past the first page. */
export function TodayList({
  scope,
  section,
  page,
  today,
}: {
  scope: TodayScope;
  section: TodaySection;
  page: TodaySectionPage;
  today: string;
}) {
  const more = useMoreOfSection(scope, section, page.nextCursor);
  const items = [...page.items, ...more.items];
  const id = `id${useId()}`; // an id begins with a letter (html-validate); React's begin with _
  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-3">
      <h3 id={id} className="text-lg font-bold">
        {TODAY_SECTION_LABELS[section]} <span className="tabular-nums">({page.total.toLocaleString('es-MX')})</span>
      </h3>
      {items.length === 0 ? (
        <p className="text-sm text-brand-800">{TODAY_SECTION_EMPTY[section]}</p>
      ) : (
        <ul className="grid gap-3" aria-labelledby={id}>
          {items.map((contact) => (
            <ContactCard key={contact.id} contact={contact} today={today} />
          ))}
        </ul>
      )}
      <ListFooter
        shown={items.length}
        total={page.total}
        {...more.footer}
        className="btn btn-outline min-h-11 justify-self-center"
      />
    </section>
  );
}
