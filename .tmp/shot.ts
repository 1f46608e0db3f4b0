import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '/work/wt-cms/tests/support/chromium.ts';
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('console', (m) => m.type() !== 'log' && console.log('console', m.type(), m.text().slice(0, 300)));
page.on('pageerror', (e) => console.log('pageerror', e.message.slice(0, 500)));
await page.goto('http://127.0.0.1:4500/editor');
await page.waitForTimeout(5000);
await page.screenshot({ path: '/tmp/editor1.png' });
console.log((await page.locator('body').innerText()).slice(0, 400));
const login = page.getByRole('button', { name: /Iniciar sesión|Login/i });
if (await login.count()) { await login.click(); await page.waitForTimeout(3000); }
await page.screenshot({ path: '/tmp/editor2.png' });
console.log((await page.locator('body').innerText()).slice(0, 600));
await page.goto('http://127.0.0.1:4500/editor#/collections/catalogo/entries/models');
await page.waitForTimeout(5000);
await page.screenshot({ path: '/tmp/editor3.png' });
await browser.close();
