#!/usr/bin/env node
/**
 * Draws the desktop app's icons into assets/ from SVG written here, with sharp (a dependency):
 *   icon.png                       512 px app icon (electron-builder makes .icns/.ico from it)
 *   tray-<tone>.png, tray-<tone>@2x.png   16 and 32 px tray icons, one per health tone
 * The robot head is the dashboard's favicon (renderer/index.html), so the app, the tray and the
 * browser tab look alike. The PNGs are committed; run `node scripts/make-icons.mjs` after a change.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ASSETS = fileURLToPath(new URL('../assets/', import.meta.url));

/** Tray colours: green ok, amber degraded, red stopped or down (main/desktop/tray-model.ts). */
const TONES = { ok: '#3fb950', degraded: '#e3a21a', stopped: '#f0483e' };
const INK = '#0e1116';
const TEAL = '#5cc8b8';

/** The favicon's head on a 16-unit grid, in one colour, with a dark rim for light panels. */
function head(fill, rim) {
  return `
  <path d="M5 4 4 1.2M11 4l1-2.8" stroke="${fill}" stroke-width="1.4" stroke-linecap="round"/>
  <circle cx="4" cy="1.4" r="1" fill="${fill}"/><circle cx="12" cy="1.4" r="1" fill="${fill}"/>
  <rect x="1.5" y="4" width="13" height="10" rx="3" fill="${fill}" stroke="${rim}" stroke-width="${rim === 'none' ? 0 : 0.6}"/>
  <circle cx="5.6" cy="9" r="1.5" fill="${INK}"/><circle cx="10.4" cy="9" r="1.5" fill="${INK}"/>`;
}

function traySvg(colour) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">${head(colour, 'rgba(0,0,0,0.45)')}</svg>`;
}

function appSvg() {
  // The head centred on a dark rounded tile, leaving the margin the platforms' icon grids expect.
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect x="24" y="24" width="464" height="464" rx="104" fill="${INK}"/>
  <g transform="translate(96 92) scale(20)">${head(TEAL, 'none')}</g>
</svg>`;
}

/** `units` is the SVG's viewBox width: it is rasterised at 4× the target size, then scaled down. */
async function render(svg, units, size, file) {
  // A downscale of a large raster is crisper than librsvg drawing a tiny one directly.
  await sharp(Buffer.from(svg), { density: (72 * 4 * size) / units })
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toFile(join(ASSETS, file));
  process.stdout.write(`make-icons: assets/${file} (${size}×${size})\n`);
}

mkdirSync(ASSETS, { recursive: true });
await render(appSvg(), 512, 512, 'icon.png');
for (const [tone, colour] of Object.entries(TONES)) {
  await render(traySvg(colour), 16, 16, `tray-${tone}.png`);
  await render(traySvg(colour), 16, 32, `tray-${tone}@2x.png`);
}
