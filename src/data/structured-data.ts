import type { CollectionEntry } from 'astro:content';
import { formatMxn, site } from './site.ts';

/** schema.org description of the business and its three offices. */
export function businessJsonLd(): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'HomeAndConstructionBusiness',
    name: site.brand.name,
    url: site.siteUrl,
    telephone: site.phone.e164,
    email: site.email,
    priceRange: `Desde ${formatMxn(site.startingPrice.amountMxn)}`,
    sameAs: site.social.map((profile) => profile.url),
    address: officeAddress(site.offices[0]),
    location: site.offices.map((office) => ({
      '@type': 'Place',
      name: `${site.brand.name} ${office.city}`,
      description: office.role,
      address: officeAddress(office),
    })),
  };
}

function officeAddress(office: (typeof site.offices)[number] | undefined): object | undefined {
  if (!office) return undefined;
  return {
    '@type': 'PostalAddress',
    addressLocality: office.city,
    addressRegion: office.region,
    addressCountry: office.countryCode,
  };
}

/** Each model as a product with its "from" price in pesos. */
export function modelsJsonLd(models: CollectionEntry<'models'>[], imageUrls: Record<string, string>): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: `Modelos de ${site.brand.name}`,
    itemListElement: models.map((model, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      item: {
        '@type': 'Product',
        name: model.data.name,
        description: model.data.description,
        image: imageUrls[model.id],
        brand: { '@type': 'Brand', name: site.brand.name },
        additionalProperty: [
          { '@type': 'PropertyValue', name: 'Superficie', value: model.data.sizeM2, unitCode: 'MTK' },
          { '@type': 'PropertyValue', name: 'Capacidad', value: `${model.data.capacity} personas` },
          { '@type': 'PropertyValue', name: 'Entrega', value: model.data.delivery },
        ],
        offers: {
          '@type': 'Offer',
          priceCurrency: 'MXN',
          price: model.data.priceFromMxn,
          priceSpecification: {
            '@type': 'PriceSpecification',
            price: model.data.priceFromMxn,
            priceCurrency: 'MXN',
            minPrice: model.data.priceFromMxn,
          },
          availability: 'https://schema.org/InStock',
          url: `${site.siteUrl}/modelos#${model.id}`,
        },
      },
    })),
  };
}
