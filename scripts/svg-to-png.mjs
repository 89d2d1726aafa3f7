// Renders SVG charts to PNG with the Debian Chromium (playwright-core, no browser download), to look
// at them before committing. Usage: node scripts/svg-to-png.mjs FILE.svg... (PNGs in $PNG_DIR,
// default the system temp directory).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';

const out = process.env.PNG_DIR ?? tmpdir();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ deviceScaleFactor: 1.5 });
for (const f of process.argv.slice(2)) {
  await page.setContent(
    `<html><body style="margin:0;background:white">${readFileSync(f, 'utf8')}</body></html>`,
  );
  const file = join(out, basename(f).replace(/\.svg$/, '.png'));
  await (await page.$('svg')).screenshot({ path: file });
  console.log(file);
}
await browser.close();
