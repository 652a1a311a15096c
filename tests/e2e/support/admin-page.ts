import type { BrowserContext, Locator, Page } from 'playwright-core';
import { collectPageErrors, launchBrowser, logIn, newSiteContext, screenshot, type LaunchedBrowser } from './browser';
import { adminClient } from './clients';
import { readState } from './environment';
import { waitUntil } from '../../support/wait-until';

/**
 * The Service Integration admin page in a real browser, logged in through wp-login.php.
 * One REST call takes about a second in Playground, so waits are generous.
 */
export const PAGE_PATH = '/wp-admin/admin.php?page=service-integration';
export const UI_TIMEOUT = 60_000;
/** For beforeAll: the first run may install Chromium, and logging in loads wp-admin. */
export const SETUP_TIMEOUT = 15 * 60_000;

export type Tab = 'account' | 'check' | 'sidecar' | 'endpoints' | 'deliveries' | 'inbound';

export interface AdminSession {
	siteUrl: string;
	launched: LaunchedBrowser;
	context: BrowserContext;
	page: Page;
	/** Page errors and console errors seen so far (see collectPageErrors). */
	errors: string[];
	close: () => Promise< void >;
}

/** Launches Chromium, logs in as `username`, and lands on the admin page (or wherever wp-admin sends a non-admin). */
export async function openSession(
	options: { username?: string; password?: string; viewport?: { width: number; height: number }; tab?: Tab } = {}
): Promise< AdminSession > {
	const { siteUrl } = readState();
	const launched = await launchBrowser();
	try {
		const context = await newSiteContext( launched.browser, siteUrl, options.viewport );
		await context.grantPermissions( [ 'clipboard-read', 'clipboard-write' ], { origin: siteUrl } );
		const page = await context.newPage();
		page.setDefaultTimeout( UI_TIMEOUT );
		page.setDefaultNavigationTimeout( UI_TIMEOUT );
		const errors = collectPageErrors( page, siteUrl );
		await logIn(
			page,
			siteUrl,
			options.username ?? 'admin',
			options.password ?? 'password',
			pageUrl( siteUrl, options.tab )
		);
		return { siteUrl, launched, context, page, errors, close: () => launched.close() };
	} catch ( error ) {
		await launched.close();
		throw error;
	}
}

export function pageUrl( siteUrl: string, tab?: Tab ): string {
	return `${ siteUrl }${ PAGE_PATH }${ tab ? `&tab=${ tab }` : '' }`;
}

/**
 * The app's own part of the page. Text lookups go through it: WordPress's a11y live
 * region repeats announced notices elsewhere in the document.
 */
export function app( page: Page ): Locator {
	return page.locator( '#service-integration-admin' );
}

/** Loads the page on a tab and waits until the app has mounted it. */
export async function openTab( session: AdminSession, tab: Tab ): Promise< void > {
	await session.page.goto( pageUrl( session.siteUrl, tab ), { waitUntil: 'domcontentloaded' } );
	await session.page.locator( '.si-tab-content' ).waitFor();
	await expectSelectedTab( session.page, tab );
}

/** Switches tab the way a person does: clicks it. */
export async function clickTab( page: Page, name: string ): Promise< void > {
	await page.getByRole( 'tab', { name, exact: true } ).click();
}

async function expectSelectedTab( page: Page, tab: Tab ): Promise< void > {
	await page.locator( `.si-tab--${ tab }[aria-selected="true"]` ).waitFor();
}

/** Waits until no spinner of the app is showing (all loads of the current tab answered). */
export async function waitForLoaded( page: Page ): Promise< void > {
	await page.waitForFunction(
		() =>
			document.querySelector( '.si-tab-content' ) !== null &&
			document.querySelector( '.si-tab-content .si-loading' ) === null,
		undefined,
		{ timeout: UI_TIMEOUT }
	);
}

/** Polls `check` until it is true, clicking `refresh` between tries (the UI does not poll by itself). */
export async function refreshUntil(
	refresh: Locator,
	check: () => Promise< boolean >,
	what: string,
	timeoutMs = 60_000
): Promise< void > {
	await waitUntil(
		async () => {
			if ( await check() ) {
				return true;
			}
			await refresh.click();
			return false;
		},
		timeoutMs,
		what,
		1500
	);
}

export async function shot( session: AdminSession, name: string ): Promise< void > {
	await screenshot( session.page, name );
}

/** The document never scrolls sideways (tables scroll inside their own box). */
export async function horizontalOverflow( page: Page ): Promise< number > {
	return page.evaluate( () => document.documentElement.scrollWidth - document.documentElement.clientWidth );
}

/**
 * The innermost elements of the plugin's page that reach past the viewport's right edge (tag,
 * classes, width, a bit of text): what to look at when horizontalOverflow is not 0.
 */
export async function overflowingElements( page: Page ): Promise< string[] > {
	return page.evaluate( () => {
		const edge = document.documentElement.clientWidth;
		// A table's header row is there for screen readers only in the card layout (clipped to 1 px).
		const sticking = Array.from( document.querySelectorAll< HTMLElement >( '.si-app *' ) ).filter(
			( element ) => element.getBoundingClientRect().right > edge + 0.5 && ! element.closest( 'thead' )
		);
		return sticking
			.filter( ( element ) => ! sticking.some( ( other ) => other !== element && element.contains( other ) ) )
			.slice( 0, 10 )
			.map(
				( element ) =>
					`${ element.tagName.toLowerCase() }.${ Array.from( element.classList ).join( '.' ) } ` +
					`(${ Math.round( element.getBoundingClientRect().width ) } px): ${ ( element.textContent ?? '' ).trim().slice( 0, 60 ) }`
			);
	} );
}

/**
 * Fails with a clear message when a REST route the page needs is missing on this site,
 * instead of letting a browser test time out on a "not available yet" notice.
 */
export async function requireRoute( path: string, what: string ): Promise< void > {
	const probe = await adminClient().get< { code?: string } >( path );
	if ( probe.status === 404 && probe.body?.code === 'rest_no_route' ) {
		throw new Error(
			`${ what }: the REST route ${ path } does not exist on this site yet, so the admin page cannot be tested against it.`
		);
	}
}
