// Why this file exists: the e2e specs assert that the page showed a loading state, which lasts as long as the
// backend's delay; polling for it from the test misses it on a busy machine, so the page records its own status texts.
import type { Page } from '@playwright/test';

/**
 * Every text the status line shows, recorded inside the page from its first script on: a loading state is seen
 * however briefly it lasts and however late a busy machine gets to look (polling for it from the test can miss it).
 */
export async function recordStatusTexts(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { statusTexts: seen });
    new MutationObserver(() => {
      const text = document.getElementById('status')?.textContent ?? '';
      if (text !== '' && text !== seen[seen.length - 1]) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts);
}
