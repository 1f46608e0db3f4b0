import type { Page } from '@playwright/test';
import { expect, test, toast } from './fixtures.ts';

// The built site under test has PUBLIC_VAPI_PUBLIC_KEY and PUBLIC_VAPI_ASSISTANT_ID
// (npm run build:test); the voice platform and Daily are answered at the network edge.
const PAGES = ['/', '/modelos', '/prefiltro', '/estimacion', '/prefiltro-socios', '/aviso-de-privacidad'];

function voiceButton(page: Page) {
  return page.locator('[data-voice-button]');
}

/** On a phone the widget steps aside while a page button is under it: scroll to the footer, where none is. */
async function revealWidget(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.locator('.voice-agent')).not.toHaveClass(/voice-agent-aside/);
}

test('the voice widget is on every page, with its label for the screen size', async ({ page }, testInfo) => {
  const mobile = testInfo.project.name === 'mobile';
  for (const path of PAGES) {
    await page.goto(path);
    await revealWidget(page);
    const button = voiceButton(page);
    await expect(button, path).toBeVisible();
    await expect(button).toHaveAccessibleName(mobile ? 'Hablar con agente' : 'Hablar con un agente');
    const box = await button.boundingBox();
    const viewport = page.viewportSize();
    expect(
      box && viewport && box.x + box.width > viewport.width - 40 && box.y + box.height > viewport.height - 40,
    ).toBe(true);
  }
});

test('downloads nothing of the voice SDK until pressed', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));
  await page.route('https://api.vapi.ai/**', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((path) => /vapi|VoiceWidget/.test(path))).toEqual([]);
  await revealWidget(page);

  await voiceButton(page).hover(); // hydrates the island: still no SDK
  await expect(voiceButton(page)).toHaveAttribute('data-enhanced', 'ready');
  expect(scripts.filter((path) => /vapi/.test(path))).toEqual([]);

  await voiceButton(page).click();
  await expect.poll(() => scripts.some((path) => /\/_astro\/vapi\./.test(path))).toBe(true);
});

for (const status of [500, 401]) {
  test(`a ${status} from the voice platform shows the start failure and returns to idle`, async ({
    page,
    consoleErrors,
  }) => {
    const calls: string[] = [];
    await page.route('https://api.vapi.ai/**', (route) => {
      calls.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message: 'no' }) });
    });
    await page.route(/daily\.co|pluot\.blue/, (route) => route.abort());
    await page.goto('/modelos');
    await revealWidget(page);
    const button = voiceButton(page);
    await button.click(); // before hydration: the page script keeps the press for the island
    await expect(toast(page, 'Error')).toContainText('No se pudo iniciar la llamada. Por favor, intenta de nuevo.');
    await expect(button).toHaveAttribute('data-state', 'idle');
    await expect(button).toBeEnabled();
    expect(calls).toContain('POST /call/web');
    consoleErrors.splice(0);
  });
}

test('shows "Conectando..." while the call is being created, and a second press cancels', async ({
  page,
  consoleErrors,
}) => {
  let release: () => void = () => {};
  await page.route('https://api.vapi.ai/**', async (route) => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    await route.fulfill({ status: 500, body: '{}' }).catch(() => {});
  });
  await page.goto('/');
  await revealWidget(page);
  const button = voiceButton(page);
  await button.hover();
  await expect(button).toHaveAttribute('data-enhanced', 'ready');
  await button.click();
  await expect(button).toHaveAttribute('data-state', 'connecting');
  await expect(button).toContainText('Conectando...');
  await button.click();
  await expect(button).toHaveAttribute('data-state', 'idle');
  release();
  await page.waitForTimeout(300);
  await expect(button).toHaveAttribute('data-state', 'idle');
  await expect(page.locator('.toast')).toHaveCount(0);
  consoleErrors.splice(0);
});

test('steps aside on a phone while a submit button is on screen', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'a phone-width behaviour');
  await page.goto('/prefiltro');
  const submit = page.getByRole('button', { name: 'Descubre si es tu momento' });
  // Bring the submit button to the bottom of the screen, where the widget sits.
  await submit.evaluate((node) =>
    window.scrollTo(0, window.scrollY + node.getBoundingClientRect().bottom - window.innerHeight + 20),
  );
  await expect(page.locator('.voice-agent')).toHaveClass(/voice-agent-aside/);
  const widget = await voiceButton(page).boundingBox();
  const target = await submit.boundingBox();
  const overlaps =
    widget &&
    target &&
    widget.y < target.y + target.height &&
    widget.y + widget.height > target.y &&
    widget.x < target.x + target.width;
  expect(overlaps && widget.y < (page.viewportSize()?.height ?? 0)).toBeFalsy();
});
