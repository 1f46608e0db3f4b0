import { formatMxn } from '../data/catalogue.ts';

/**
 * The preview beside the form: the models as /modelos shows them (name,
 * "desde" price, size, people, delivery, photo), updated as marketing types.
 * decap-cms renders it in its preview frame with the entry's data.
 */

interface PreviewProps {
  entry: { getIn: (path: string[]) => unknown };
  getAsset: (path: string) => { toString(): string } | undefined;
}

interface ModelData {
  id?: string;
  name?: string;
  priceFromMxn?: number;
  sizeM2?: number;
  capacity?: number;
  delivery?: string;
  description?: string;
  image?: string;
  imageAlt?: string;
}

export function ModelsPreview({ entry, getAsset }: PreviewProps) {
  const list = entry.getIn(['data', 'models']) as { toJS(): ModelData[] } | undefined;
  const models = list?.toJS() ?? [];
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 16, color: '#1c2b22' }}>
      <h1 style={{ fontSize: 22 }}>Vista previa de /modelos</h1>
      <ul style={{ listStyle: 'none', padding: 0, display: 'grid', gap: 16 }}>
        {models.map((model, index) => (
          <li
            key={model.id ?? index}
            data-preview-model={model.id}
            style={{ border: '1px solid #d6d3c4', borderRadius: 16, padding: 16 }}
          >
            {model.image ? (
              <img
                src={getAsset(model.image)?.toString()}
                alt={model.imageAlt ?? ''}
                style={{ width: '100%', maxHeight: 180, objectFit: 'cover', borderRadius: 12 }}
              />
            ) : null}
            <h2 style={{ fontSize: 18, margin: '8px 0 4px' }}>{model.name}</h2>
            <p style={{ margin: 0, fontWeight: 700 }} className="model-price">
              {typeof model.priceFromMxn === 'number' ? `Desde ${formatMxn(model.priceFromMxn)}` : 'Sin precio'}
            </p>
            <p style={{ margin: '4px 0' }}>
              {model.sizeM2} m² · {model.capacity} personas · Entrega en {model.delivery?.replace('-', ' a ')}
            </p>
            <p style={{ margin: 0 }}>{model.description}</p>
          </li>
        ))}
      </ul>
    </main>
  );
}
