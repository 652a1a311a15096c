import fs from 'fs';
import path from 'path';
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from 'playwright-core';
import { ensureDebianPackages } from '../../../scripts/lib/debian-packages';
import { BROWSER_PACKAGE } from '../../../scripts/lib/test-packages';
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

const HOW_TO_INSTALL = `Install it with \`sudo apt-get update && sudo apt-get install -y ${ BROWSER_PACKAGE }\` (Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium or Chrome binary.`;

/** Returns the browser binary, installing Debian's chromium first when that is possible. */
export function ensureChromium(): string {
	ensureDebianPackages( {
		need: `The admin page's browser tests need Chromium at ${ CHROMIUM_PATH }`,
		packages: [ BROWSER_PACKAGE ],
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

/** How long the log-in POST and the page it leads to may take (see logIn). */
const LOGIN_ANSWER_TIMEOUT_MS = 60_000;

/**
 * Logs in through wp-login.php like a person: types the user name and password, submits,
 * and lands on `redirectTo` (a wp-admin URL; the dashboard is slow offline, so tests
 * go straight to the page they need).
 *
 * Each step is awaited on what the server did, not on the URL alone, so a failure says
 * which step failed: the form not submitted (the click is repeated once), the POST or the
 * page it redirects to not answered (Playground serves one request at a time, and an admin
 * request's shutdown may have started Action Scheduler's async queue runner, up to 30 s a
 * run, which the log-in waits behind; past the wait, a fresh request tells a lost request
 * from a stuck site, and the log-in is tried once more), or wp-login.php answering with its
 * own error (tried once more, then reported with WordPress's message).
 */
export async function logIn(
	page: Page,
	siteUrl: string,
	username: string,
	password: string,
	redirectTo = `${ siteUrl }/wp-admin/profile.php`
): Promise< void > {
	const loginUrl = `${ siteUrl }/wp-login.php?redirect_to=${ encodeURIComponent( redirectTo ) }`;
	let refusal = '';
	for ( let attempt = 1; attempt <= 2; attempt++ ) {
		try {
			await page.goto( loginUrl, { waitUntil: 'domcontentloaded' } );
			await page.fill( '#user_login', username );
			await page.fill( '#user_pass', password );
			const { response, answerLoaded } = await submitLogIn( page );
			if ( response.status() >= 300 && response.status() < 400 ) {
				await page.waitForURL( ( url ) => ! url.pathname.endsWith( '/wp-login.php' ), {
					timeout: LOGIN_ANSWER_TIMEOUT_MS,
					waitUntil: 'domcontentloaded',
				} );
				const cookies = await page.context().cookies( siteUrl );
				if ( cookies.some( ( cookie ) => cookie.name.startsWith( 'wordpress_logged_in_' ) ) ) {
					return;
				}
				refusal = `redirected to ${ page.url() } without a login cookie`;
				continue;
			}
			// The answer's own document: the log-in form's is loaded already, and a navigation away
			// before this one has committed waits for it.
			await answerLoaded;
			const error = page.locator( '#login_error' );
			refusal = `HTTP ${ response.status() }: ${
				( await error.count() ) > 0 ? ( await error.innerText() ).trim() : 'no #login_error on the page'
			}`;
		} catch ( error ) {
			if ( ! ( error instanceof Error ) || ! /timeout|did not answer/i.test( error.message ) ) {
				throw error;
			}
			// Lost, or stuck behind something? A fresh request tells which; a lost one is tried again.
			refusal = `${ error.message.split( '\n' )[ 0 ] }; a fresh GET /wp-json/ then ${ await probeSite( siteUrl ) }`;
		}
	}
	throw new Error( `Logging in as ${ username } through wp-login.php failed twice; the last time: ${ refusal }` );
}

/** Whether the site answers a plain request now (without Playground's auto-login), and how fast. */
async function probeSite( siteUrl: string ): Promise< string > {
	const started = Date.now();
	try {
		const response = await fetch( `${ siteUrl }/wp-json/`, {
			headers: { cookie: PLAYGROUND_COOKIE },
			redirect: 'manual',
			signal: AbortSignal.timeout( 60_000 ),
		} );
		await response.arrayBuffer();
		return `answered HTTP ${ response.status } in ${ Date.now() - started } ms`;
	} catch ( error ) {
		return `got no answer in ${ Date.now() - started } ms (${ String( error ) })`;
	}
}

/**
 * Clicks "Log In" (twice if the first click sent nothing) and returns the answer to the form's
 * POST, and when the document it navigated to has loaded.
 */
async function submitLogIn( page: Page ): Promise< { response: Response; answerLoaded: Promise< unknown > } > {
	const answerLoaded = page.waitForEvent( 'domcontentloaded', { timeout: LOGIN_ANSWER_TIMEOUT_MS } );
	answerLoaded.catch( () => undefined ); // awaited only when the answer is not a redirect
	const isLogInPost = ( request: Request ) =>
		request.method() === 'POST' && new URL( request.url() ).pathname.endsWith( '/wp-login.php' );
	let request: Request | undefined;
	for ( let click = 1; request === undefined; click++ ) {
		const sent = page.waitForRequest( isLogInPost, { timeout: 30_000 } );
		await page.click( '#wp-submit', { noWaitAfter: true } );
		try {
			request = await sent;
		} catch ( error ) {
			if ( click === 2 ) {
				throw new Error( `Clicking "Log In" twice sent no POST to wp-login.php: ${ String( error ) }` );
			}
		}
	}
	const started = Date.now();
	const response = await page
		.waitForResponse( ( candidate ) => candidate.request() === request, { timeout: LOGIN_ANSWER_TIMEOUT_MS } )
		.catch( ( error: unknown ) => {
			throw new Error(
				`wp-login.php did not answer the log-in POST within ${ LOGIN_ANSWER_TIMEOUT_MS / 1000 } s (${ String( error ) })`
			);
		} );
	if ( Date.now() - started > 20_000 ) {
		// Worth seeing in the log: a slow answer here is the single worker busy with something else.
		console.warn(
			`wp-login.php answered the log-in POST after ${ Math.round( ( Date.now() - started ) / 1000 ) } s`
		);
	}
	return { response, answerLoaded };
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
