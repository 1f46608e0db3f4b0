import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentCheck } from '../integrations/content-check.ts';
import {
  checkContent,
  type DataFiles,
  LEGAL_DIR,
  PROJECT_ROOT,
  readDataFiles,
  readJsonFile,
  readLegalTexts,
} from './content-check.ts';
import { DataError, formatProblem, parseData } from './problems.ts';
import { siteSchema } from './schemas.ts';

type Entry = Record<string, unknown>;

const shipped = readDataFiles();
const legal = readLegalTexts();

/** The project's data files, parsed, for one test to break. */
function data(): DataFiles & { models: Entry[]; gallery: Entry[]; site: Entry; landing: Entry } {
  return structuredClone(shipped.data) as ReturnType<typeof data>;
}
const problems = (files: DataFiles, texts = legal) => checkContent(files, texts).map(formatProblem);

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
/** A copy of the project's data files, images and legal pages. */
function copyOfProject(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'casas-content-'));
  roots.push(root);
  for (const folder of ['src/data', 'src/assets', LEGAL_DIR])
    cpSync(path.join(PROJECT_ROOT, folder), path.join(root, folder), { recursive: true });
  return root;
}

describe('the content check', () => {
  it('finds nothing wrong in the data files as they are', () => {
    expect(shipped.problems).toEqual([]);
    expect(problems(shipped.data)).toEqual([]);
  });

  it('says which model has its price written as text, and what to write', () => {
    const files = data();
    (files.models[1] as Entry).priceFromMxn = '$319,000';
    expect(problems(files)).toEqual([
      'src/data/models.json, modelo "meridian" (núm. 2), campo "priceFromMxn": debe ser un número, por ejemplo 319000 (está escrito como texto: "$319,000"); quita las comillas, los signos y las comas.',
    ]);
  });

  it('names the model without a delivery time', () => {
    const files = data();
    delete (files.models[2] as Entry).delivery;
    expect(problems(files)).toEqual([
      'src/data/models.json, modelo "lumo" (núm. 3), campo "delivery": falta este campo (Tiempo de entrega, por ejemplo "4-6 semanas").',
    ]);
    (files.models[2] as Entry).delivery = '  ';
    expect(problems(files)).toEqual([
      'src/data/models.json, modelo "lumo" (núm. 3), campo "delivery": escribe el plazo con dos números y la unidad, como "4-6 semanas" o "2-4 meses".',
    ]);
  });

  it('names the model whose image file does not exist', () => {
    const files = data();
    (files.models[4] as Entry).image = '../assets/models/sand-plus.jpg';
    expect(problems(files)).toEqual([
      'src/data/models.json, modelo "sand-plus" (núm. 5), campo "image": no existe el archivo src/assets/models/sand-plus.jpg: revisa el nombre (mayúsculas, extensión) o copia ahí la imagen.',
    ]);
  });

  it('names a model slug used twice', () => {
    const files = data();
    (files.models[3] as Entry).id = 'lumo';
    expect(problems(files)).toEqual([
      'src/data/models.json, modelo "lumo" (núm. 4), campo "id": el identificador "lumo" ya lo tiene el modelo núm. 3: cada modelo necesita uno distinto.',
    ]);
  });

  it('counts the gallery: 17 images, no more, no fewer', () => {
    const files = data();
    files.gallery.pop();
    expect(problems(files)).toEqual([
      'src/data/gallery.json: la galería debe tener exactamente 17 imágenes (tiene 16): agrega o quita imágenes hasta que sean 17.',
    ]);
    files.gallery.push({ ...(files.gallery[0] as Entry), id: '17' }, { ...(files.gallery[1] as Entry), id: '18' });
    expect(problems(files)).toEqual([
      'src/data/gallery.json: la galería debe tener exactamente 17 imágenes (tiene 18): agrega o quita imágenes hasta que sean 17.',
    ]);
  });

  it('names a gallery image that is missing, or of a kind the site cannot show', () => {
    const files = data();
    (files.gallery[6] as Entry).image = '../assets/gallery/07.svg.txt';
    (files.gallery[7] as Entry).image = '../assets/gallery/no-existe.svg';
    expect(problems(files)).toEqual([
      'src/data/gallery.json, imagen "07" (núm. 7), campo "image": debe ser la ruta de un archivo .svg, .png, .jpg, .webp o .avif, por ejemplo "../assets/models/lumo.svg"',
      'src/data/gallery.json, imagen "07" (núm. 7), campo "image": no existe el archivo src/assets/gallery/07.svg.txt: revisa el nombre (mayúsculas, extensión) o copia ahí la imagen.',
      'src/data/gallery.json, imagen "08" (núm. 8), campo "image": no existe el archivo src/assets/gallery/no-existe.svg: revisa el nombre (mayúsculas, extensión) o copia ahí la imagen.',
    ]);
  });

  it('speaks Spanish for every kind of mistake in the page copy and the business facts', () => {
    const files = data();
    const hero = (files.landing as { hero: Entry }).hero;
    hero.highlights = ['Desde $60,000 MXN', 'Garantía de 10 años'];
    hero.titel = 'Tu casa';
    (files.landing as { seo: Entry }).seo.title = 'x'.repeat(75);
    files.site.email = 'hola@';
    (files.site.social as Entry[])[0] = { network: 'myspace', label: 'MySpace', url: 'https://myspace.com/ceiba' };
    delete files.site.founder;
    expect(problems(files)).toEqual([
      'src/data/site.json, campo "email": no es un correo electrónico válido (dice "hola@").',
      'src/data/site.json, campo "social", elemento 1, campo "network": debe ser uno de: "facebook", "instagram", "youtube", "tiktok", "linkedin" (dice "myspace").',
      'src/data/site.json, campo "founder": falta este campo.',
      'src/data/landing.json, campo "seo.title": admite como máximo 70 caracteres (tiene 75): acórtalo.',
      'src/data/landing.json, campo "hero.highlights": debe tener exactamente 3 elementos (tiene 2).',
      'src/data/landing.json, campo "hero.titel": este campo no existe: revisa cómo está escrito (mayúsculas, acentos) o bórralo.',
    ]);
  });

  it('refuses a {token} the legal pages cannot fill in', () => {
    const texts = [{ file: `${LEGAL_DIR}/terminos-y-condiciones.md`, text: 'Hola.\nLlámanos al {telefono}.\n{email}' }];
    expect(problems(shipped.data, texts)).toEqual([
      'src/content/legal/terminos-y-condiciones.md, línea 2: {telefono} no es un dato que la página sepa poner: usa {email}, {domicilio}, {modelos}, {precioMinimo}, {m2Minimo}, {m2Maximo}, {entregaMasCorta}, {entregas}, {precioDesde}, {desdeIncluye}, o escribe el texto tal cual.',
    ]);
  });

  const syntax = (text: string) => {
    const root = copyOfProject();
    writeFileSync(path.join(root, 'src/data/steps.json'), text);
    const read = readJsonFile(root, 'src/data/steps.json');
    return 'problem' in read ? formatProblem(read.problem) : 'sin error';
  };

  it('points at a missing comma: its line, its column, the lines around it and what to do', () => {
    expect(syntax('[\n  { "id": "uno" }\n  { "id": "dos" }\n]\n')).toBe(
      [
        'src/data/steps.json, línea 2, columna 18: no es JSON válido: falta una coma (,) aquí: entre dos campos o dos elementos de una lista va una coma.',
        '  1 | [',
        '> 2 |   { "id": "uno" }',
        '    |                  ^',
        '  3 |   { "id": "dos" }',
      ].join('\n'),
    );
  });

  it('points at a comma left after the last field', () => {
    expect(syntax('[\n  {\n    "id": "uno",\n    "order": 1,\n  }\n]\n')).toBe(
      [
        'src/data/steps.json, línea 4, columna 15: no es JSON válido: sobra esta coma: después del último campo de un bloque { } no va coma. Bórrala.',
        '  3 |     "id": "uno",',
        '> 4 |     "order": 1,',
        '    |               ^',
        '  5 |   }',
      ].join('\n'),
    );
    expect(syntax('[\n  { "id": "uno" },\n]')).toMatch(
      /^src\/data\/steps\.json, línea 2, columna 18: no es JSON válido: sobra esta coma: después del último elemento de una lista \[ \] no va coma\./,
    );
  });

  it('names curly quotes pasted from a word processor', () => {
    expect(syntax('[\n  { "id": “uno” }\n]')).toMatch(
      /^src\/data\/steps\.json, línea 2, columna 11: no es JSON válido: hay comillas tipográficas \(“ ” o ‘ ’\)/,
    );
    expect(syntax('[\n  { "id": "uno” }\n]')).toMatch(
      /^src\/data\/steps\.json, línea 2, columna 11: no es JSON válido: este texto cierra con una comilla tipográfica/,
    );
  });

  it('stops the build with every problem of the files on disk at once, in Spanish, without a stack trace', () => {
    const root = copyOfProject();
    const printed: string[] = [];
    const exits: number[] = [];
    const hook = () =>
      (
        contentCheck({ root, print: (text) => printed.push(text), exit: (code) => exits.push(code) }).hooks[
          'astro:config:setup'
        ] as () => void
      )();
    hook();
    expect([printed, exits]).toEqual([[], []]);

    const models = JSON.parse(JSON.stringify(shipped.data.models)) as Entry[];
    (models[0] as Entry).priceFromMxn = '229000';
    writeFileSync(path.join(root, 'src/data/models.json'), JSON.stringify({ models }));
    writeFileSync(path.join(root, 'src/data/gallery.json'), '{ "images": [] }');
    writeFileSync(path.join(root, 'src/data/steps.json'), '[\n  { "id": "uno" },\n]\n');
    hook();
    expect(exits).toEqual([1]);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toBe(
      [
        'Hay 3 errores en los datos del sitio; corrígelos y vuelve a intentar:',
        '- src/data/steps.json, línea 2, columna 18: no es JSON válido: sobra esta coma: después del último elemento de una lista [ ] no va coma. Bórrala.',
        '    1 | [',
        '  > 2 |   { "id": "uno" },',
        '      |                  ^',
        '    3 | ]',
        '- src/data/models.json, modelo "salvia-glamping" (núm. 1), campo "priceFromMxn": debe ser un número, por ejemplo 229000 (está escrito como texto: "229000"); quita las comillas, los signos y las comas.',
        '- src/data/gallery.json: la galería debe tener exactamente 17 imágenes (tiene 0): agrega o quita imágenes hasta que sean 17.',
        'La compilación se detuvo: nada se publicó.',
      ].join('\n'),
    );
  });

  it('makes site.ts and copy.ts fail in Spanish too', () => {
    const site = { ...(shipped.data.site as Entry), placeholders: ['telefono'] };
    const error = (() => {
      try {
        parseData(siteSchema, site, 'src/data/site.json');
        return undefined;
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toMatch(
      /^Hay 1 error en los datos del sitio; corrígelos y vuelve a intentar:\n- src\/data\/site\.json, campo "placeholders", elemento 1: debe ser uno de: "phone", .* \(dice "telefono"\)\.$/,
    );
  });
});
