/**
 * Passkeys in e2e: the Chromium DevTools virtual authenticator stands in for a phone or a
 * security key. Each browser context gets its own, so two contexts are two devices.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';

export interface VirtualAuthenticator {
  /** How many passkeys this device holds. */
  count(): Promise<number>;
}

/** A platform authenticator with user verification that always succeeds (a phone unlocked). */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async count() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials.length;
    },
  };
}

/** The session cookie the cockpit set for this context, or undefined. */
export async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies();
  return cookies.find((c) => c.name === 'cockpit_session')?.value;
}

/** Opens the dashboard of a robot without passkeys and makes its first one (trust on first use). */
export async function enrolFirstPasskey(page: Page, url: string, label: string): Promise<void> {
  await page.goto(`${url}/`);
  await expect(page.getByRole('heading', { name: 'Create the first passkey for this robot' })).toBeVisible();
  await page.getByLabel('Name for this passkey').fill(label);
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByText('Simulated robot')).toBeVisible();
}
