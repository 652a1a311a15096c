import fs from 'fs';
import path from 'path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureDebianPackages } from '../../../scripts/lib/debian-packages';
import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';

/**
 * A real headless Chromium for the admin page's browser tests, driven by playwright-core.
 * Playwright cannot download its own browser here, so this uses Debian's `chromium`
 * package, and installs it when it is missing and the run may do so (root with apt-get).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve( __dirname, '..', '..', '..', 'test-artifacts', 'screenshots' );

const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

const HOW_TO_INSTALL =
	'Install it with `sudo apt-get update && sudo apt-get install -y chromium` (Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium or Chrome binary.';

/** Returns the browser binary, installing Debian's chromium first when that is possible. */
export function ensureChromium(): string {
	ensureDebianPackages( {
		need: `The admin page's browser tests need Chromium at ${ CHROMIUM_PATH }`,
		packages: [ 'chromium' ],
		present: () => fs.existsSync( CHROMIUM_PATH ),
		howToInstall: HOW_TO_INSTALL,
		// Installing Debian's package does not help when CHROMIUM_PATH points elsewhere.
		installable: CHROMIUM_PATH === '/usr/bin/chromium',
	} );
	return CHROMIUM_PATH;
}

export interface LaunchedBrowser {
	browser: Browser;
	/** Closes the browser (playwright removes its profile directory). */
	close: () => Promise< void >;
}

/**
 * Launches headless Chromium with a fresh profile: playwright passes every launch its own
 * new temporary `--user-data-dir` (and deletes it on close; it refuses one given in `args`),
 * so each run starts with no cookies, cache or service workers from an earlier one.
 */
export async function launchBrowser(): Promise< LaunchedBrowser > {
	const executablePath = ensureChromium();
	const browser = await chromium.launch( { executablePath, headless: true, args: CHROMIUM_FLAGS, timeout: 60_000 } );
	return {
		browser,
		close: async () => {
			await browser.close().catch( () => undefined );
		},
	};
}

/**
 * A context that Playground's auto-login leaves alone: without this cookie every page
 * answers 302 and logs the visitor in as admin, which would defeat the login tests.
 */
export async function newSiteContext(
	browser: Browser,
	siteUrl: string,
	viewport = { width: 1280, height: 900 }
): Promise< BrowserContext > {
	const context = await browser.newContext( { viewport, locale: 'en-US' } );
	const [ name, value ] = PLAYGROUND_COOKIE.split( '=' ) as [ string, string ];
	await context.addCookies( [ { name, value, url: siteUrl } ] );
	return context;
}

/**
 * Logs in through wp-login.php like a person: types the user name and password, submits,
 * and lands on `redirectTo` (a wp-admin URL; the dashboard is slow offline, so tests
 * go straight to the page they need).
 */
export async function logIn(
	page: Page,
	siteUrl: string,
	username: string,
	password: string,
	redirectTo = `${ siteUrl }/wp-admin/profile.php`
): Promise< void > {
	await page.goto( `${ siteUrl }/wp-login.php?redirect_to=${ encodeURIComponent( redirectTo ) }`, {
		waitUntil: 'domcontentloaded',
	} );
	await page.fill( '#user_login', username );
	await page.fill( '#user_pass', password );
	await Promise.all( [
		// Long: Playground serves one request at a time, and an admin request's shutdown may have
		// started Action Scheduler's async queue runner (up to 30 s a run, then a 5 s sleep and
		// maybe another run), which the log-in then waits behind.
		page.waitForURL( ( url ) => ! url.pathname.endsWith( '/wp-login.php' ), {
			timeout: 300_000,
			waitUntil: 'domcontentloaded',
		} ),
		page.click( '#wp-submit', { noWaitAfter: true } ),
	] );
	const cookies = await page.context().cookies( siteUrl );
	if ( ! cookies.some( ( cookie ) => cookie.name.startsWith( 'wordpress_logged_in_' ) ) ) {
		throw new Error(
			`Logging in as ${ username } through wp-login.php did not set a login cookie (now at ${ page.url() })`
		);
	}
}

/** Saves a full-page screenshot under test-artifacts/screenshots/ and returns its path. */
export async function screenshot( page: Page, name: string ): Promise< string > {
	fs.mkdirSync( SCREENSHOT_DIR, { recursive: true } );
	const file = path.join( SCREENSHOT_DIR, `${ name }.png` );
	// From the top: wp-admin's fixed admin bar would otherwise be drawn where the page was scrolled to.
	await page.evaluate( () => window.scrollTo( 0, 0 ) );
	await page.screenshot( { path: file, fullPage: true } );
	return file;
}

/**
 * Collects what the page reports as broken (uncaught errors, console errors and React
 * warnings), so a test can assert the admin page ran clean. Resources from other hosts
 * are ignored: this machine is offline and wp-admin asks Gravatar for the avatar.
 */
export function collectPageErrors( page: Page, siteUrl: string ): string[] {
	const errors: string[] = [];
	const origin = new URL( siteUrl ).origin;
	page.on( 'pageerror', ( error ) => errors.push( `pageerror: ${ error.message }` ) );
	page.on( 'console', ( message ) => {
		const from = message.location().url;
		const offsite = from !== '' && ! from.startsWith( origin );
		if (
			( message.type() === 'error' ||
				( message.type() === 'warning' && message.text().startsWith( 'Warning:' ) ) ) &&
			! offsite
		) {
			errors.push( `console.${ message.type() }: ${ message.text().split( '\n' )[ 0 ] }` );
		}
	} );
	return errors;
}
