import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * Issue #26's loose end: the panel's manifest offers PNG icons of 192 and 512 px (some
 * browsers offer to install only with them), each a real PNG of the size it declares
 * (drawn from the favicon by scripts/admin-icons.ts).
 */
const PUBLIC = path.resolve(import.meta.dirname, '../../public');

it('the manifest lists PNG icons of 192 and 512 px, and each file is a PNG of that size', () => {
  const manifest = JSON.parse(readFileSync(path.join(PUBLIC, 'admin/manifest.webmanifest'), 'utf8')) as {
    icons: { src: string; sizes: string; type: string }[];
  };
  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  expect(pngs.map((icon) => icon.sizes).sort()).toEqual(['192x192', '512x512']);
  for (const icon of pngs) {
    const file = readFileSync(path.join(PUBLIC, icon.src));
    expect(file.subarray(1, 4).toString('latin1'), icon.src).toBe('PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    expect(`${file.readUInt32BE(16)}x${file.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
  }
});
